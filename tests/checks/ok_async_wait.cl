// Correct: the async copy is waited for before the local copy is read.
kernel void ok_async_wait(global const int *in, global int *out) {
  local int tmp[64];
  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 64, 64, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tmp[63 - get_local_id(0)];
}
