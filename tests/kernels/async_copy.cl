// async_work_group_copy global->local and local->global, a strided copy,
// and wait_group_events.
kernel void async_copy(global const int *in, global int *out, global int *strided)
{
  local int buf[32];
  local int4 vbuf[4];
  int grp = get_group_id(0), lid = get_local_id(0);
  event_t e = async_work_group_copy(buf, in + grp * 32, 32, 0);
  event_t e2 = async_work_group_copy(vbuf, (global const int4 *)(in + grp * 32), 4, 0);
  wait_group_events(1, &e);
  wait_group_events(1, &e2);
  buf[lid] = buf[lid] * 3 + vbuf[lid & 3].y;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t f = async_work_group_copy(out + grp * 32, buf, 32, 0);
  event_t g = async_work_group_strided_copy(strided + grp, buf, 32, 4, 0);   /* dst stride 4 */
  wait_group_events(1, &f);
  wait_group_events(1, &g);
}
