// A pointer chosen per lane by a select whose arms step by the same stride
// (the JIT keeps a flag: "the condition was the same in every lane, so the
// lanes step by the arms' stride") is made before a work-group barrier and
// dereferenced after it.  The subgroup suspends at the barrier: after the
// resume that flag must not be trusted (it was a local of the previous
// call; the JIT read every lane from lane 0's arm).  Once with a condition
// that varies between lanes, once with one that is the same in every lane
// of a subgroup.
kernel void select_barrier(global const int *in, global int *out)
{
  size_t i = get_global_id(0);
  uint l = get_local_id(0);
  local int tmp[64];
  const global int *p = (i % 3 == 0) ? in + i : in + i + 64;
  const global int *q = ((i / 16) & 1) ? in + i : in + i + 128;
  tmp[l] = (int)i;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = *p + tmp[63 - l];
  out[128 + i] = *q;
}
