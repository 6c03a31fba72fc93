// async_work_group_copy and wait_group_events used wrongly (each reported)
// and rightly (no report).  Local size 16, subgroups of 8: two subgroups.
kernel void ae_ok(global const int *in, global int *out)
{
  local int a[16], b[16];
  size_t l = get_local_id(0);
  event_t e = async_work_group_copy(a, in, 16, 0);
  e = async_work_group_copy(b, in + 16, 16, e);   // the same event: one wait
  wait_group_events(1, &e);
  out[get_global_id(0)] = a[l] + b[15 - l];
}

kernel void ae_partial(global const int *in, global int *out)
{
  local int a[16];
  size_t l = get_local_id(0);
  a[l] = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l % 8 < 4) {               // half of each subgroup
    event_t e = async_work_group_copy(a, in, 16, 0);
    wait_group_events(1, &e);
  }
  out[get_global_id(0)] = 1;
}

kernel void ae_loop(global const int *in, global int *out)
{
  local int a[16];
  size_t l = get_local_id(0);
  for (uint k = 0; k < 1 + l % 2; k++) {   // odd work-items copy twice
    event_t e = async_work_group_copy(a, in + k, 8, 0);
    wait_group_events(1, &e);
  }
  out[get_global_id(0)] = 1;
}

kernel void ae_single(global const int *in, global int *out)
{
  local int a[16];
  if (get_local_id(0) == 0) {
    event_t e = async_work_group_copy(a, in, 16, 0);
    wait_group_events(1, &e);
  }
  out[get_global_id(0)] = 1;
}

kernel void ae_never_waited(global const int *in, global int *out)
{
  local int a[16];
  size_t l = get_local_id(0);
  event_t e = async_work_group_copy(a, in, 16, 0);
  (void)e;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = a[l];
}

kernel void ae_invalid(global const int *in, global int *out)
{
  local int a[16];
  size_t l = get_local_id(0);
  event_t evs[2];
  evs[0] = async_work_group_copy(a, in, 16, 0);
  wait_group_events(2, evs);     // evs[1] was never set
  out[get_global_id(0)] = a[l];
}

kernel void ae_wait_divergent(global const int *in, global int *out)
{
  local int a[16];
  size_t l = get_local_id(0);
  event_t e = async_work_group_copy(a, in, 16, 0);
  if (l % 8 < 2) wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = a[l];
}
