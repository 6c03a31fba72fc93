// Buffers marked ro / wo in the run file (Oclgrind's read-only and
// write-only flags): a write to an ro buffer or a read from a wo buffer is a
// fault; the kernel that respects them runs clean.
kernel void baf_ok(global const int *in, global int *out)
{
  size_t i = get_global_id(0);
  out[i] = in[i] * 3;
}

kernel void baf_write_ro(global int *in, global int *out)
{
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;
  in[i] = 0;          // in is ro: dropped and reported
}

kernel void baf_read_wo(global const int *in, global int *out)
{
  size_t i = get_global_id(0);
  out[i] = in[i];
  out[i] += 5;        // out is wo: this read faults (yields 0)
}
