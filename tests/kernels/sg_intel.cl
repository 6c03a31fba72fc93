// cl_intel_subgroups (+ _short, _char): shuffles of every vector width and
// integer type, and buffer block reads/writes (_ui 1/2/4/8, _us 1/2).
// Work-groups are whole subgroups; every index stays in [0, S) (no UB).
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#pragma OPENCL EXTENSION cl_intel_subgroups_short : enable
#pragma OPENCL EXTENSION cl_intel_subgroups_char : enable
kernel void sg_intel(global float *of, global int *oi, global long *ol, global short *osh,
                     global char *och, global const uint *src, global uint *dst,
                     global const ushort *usrc, global ushort *udst) {
  uint l = get_sub_group_local_id(), S = get_max_sub_group_size();
  size_t g = get_global_id(0), sgb = g - l;
  float fg = (float)g;
  float16 v = (float16)(fg, fg + 0.5f, -fg, fg * 2.0f, fg + 0.25f, 3.0f, -fg * 4.0f, fg - 7.0f,
                        fg + 100.0f, -1.0f, fg * 0.125f, fg + 9.0f, 11.0f - fg, fg, fg * 8.0f, -0.5f);
  global float *o = of + g * 33;
  vstore2(intel_sub_group_shuffle(v.s01, (l + 5u) % S), 0, o);
  vstore3(intel_sub_group_shuffle_xor(v.s234, 3u), 0, o + 2);
  vstore4(intel_sub_group_shuffle(v.s4567, S - 1u - l), 0, o + 5);
  vstore8(intel_sub_group_shuffle_xor(v.lo, 1u), 0, o + 9);
  vstore16(intel_sub_group_shuffle(v, (l * 3u) % S), 0, o + 17);
  int cur = (int)(g * 7), nxt = (int)(100000 + g), prv = (int)(-1 - (int)g);
  oi[g * 4 + 0] = intel_sub_group_shuffle_down(cur, nxt, 3u);
  oi[g * 4 + 1] = (int)intel_sub_group_shuffle_up((uint)prv, (uint)cur, 2u);
  oi[g * 4 + 2] = intel_sub_group_shuffle(cur, S - 1u - l);
  oi[g * 4 + 3] = intel_sub_group_shuffle_xor(cur, 2u);
  long lc = (long)g * 0x100000001L, ln = -(long)g * 77L;
  ol[g * 2 + 0] = intel_sub_group_shuffle_down(lc, ln, S - 1u);
  ol[g * 2 + 1] = (long)intel_sub_group_shuffle_up((ulong)ln, (ulong)lc, S);
  short s = (short)(g * 1001);
  osh[g * 2 + 0] = intel_sub_group_shuffle(s, (l + 1u) % S);
  osh[g * 2 + 1] = (short)intel_sub_group_shuffle_xor((ushort)s, 1u);
  char c = (char)(g * 13), cn = (char)(g * 5 + 1);
  och[g * 2 + 0] = intel_sub_group_shuffle_down(c, cn, 1u);
  och[g * 2 + 1] = (char)intel_sub_group_shuffle_up((uchar)cn, (uchar)c, 1u);
  // block I/O: the subgroup owns 16*S uints / 4*S ushorts
  global const uint *p = src + 16 * sgb;
  global uint *q = dst + 16 * sgb;
  uint a1 = intel_sub_group_block_read(p);
  uint2 a2 = intel_sub_group_block_read2(p + S);
  uint4 a4 = intel_sub_group_block_read4(p + 3 * S);
  uint8 a8 = intel_sub_group_block_read8(p + 7 * S);
  intel_sub_group_block_write(q, a1 + 1u);
  intel_sub_group_block_write2(q + S, a2.s10);
  intel_sub_group_block_write4(q + 3 * S, a4.s3210);
  intel_sub_group_block_write8(q + 7 * S, a8.s12345670);
  global const ushort *up = usrc + 4 * sgb;
  global ushort *uq = udst + 4 * sgb;
  ushort b1 = intel_sub_group_block_read_us(up);
  ushort2 b2 = intel_sub_group_block_read_us2(up + S);
  intel_sub_group_block_write_us(uq, (ushort)(b1 ^ 0xffff));
  intel_sub_group_block_write_us2(uq + S, b2.s10);
}
