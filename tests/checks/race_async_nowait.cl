// Data race: the local copy is read before wait_group_events, while the
// async copy may still be writing it.
kernel void race_async_nowait(global const int *in, global int *out) {
  local int tmp[64];
  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 64, 64, 0);   // @W
  int v = tmp[get_local_id(0)];                                              // @R
  wait_group_events(1, &e);
  out[get_global_id(0)] = v;
}
