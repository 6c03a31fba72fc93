// Loads and stores at data-driven byte offsets (off[i]): the lanes' addresses
// follow no stride, so the JIT range-checks them lane by lane in one pass
// (one unsigned maximum of each lane's offset from the first lane's region,
// rotated by the alignment) before its unchecked path.  The stores go to one
// of two buffers per lane (sel[i]): a subgroup whose lanes reach both must
// take the per-lane path and still store every lane.  The fault cases put one
// lane one element past the end, one element before the start, or two bytes
// off the int alignment.
kernel void scatter_check(global const int *off, global const int *sel, global const int *in,
                          global int *a, global int *b, global int *g)
{
  uint i = get_global_id(0);
  int o = off[i];
  g[i] = *(global const int *)((global const char *)in + o);
  global char *dst = sel[i] ? (global char *)b : (global char *)a;
  *(global int *)(dst + o) = in[i] * 2 + 1;
}
