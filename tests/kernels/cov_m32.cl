// Physical32 (compiled with -m32: spir-unknown-unknown): pointers, pointer
// arithmetic and differences, size_t, intptr_t, local memory, atomics.
typedef struct { char c; int i; short s; } S;   // 12 bytes, i at 4, s at 8

kernel void cov_m32(global int *in, global uint *out, local int *scratch,
                    global volatile int *counter) {
  size_t gid = get_global_id(0);
  size_t lid = get_local_id(0);
  size_t ls = get_local_size(0);
  global uint *o = out + gid * 8;
  o[0] = (uint)sizeof(size_t);
  o[1] = (uint)sizeof(global int *);
  global int *p = in + gid;
  global int *q = in + (get_global_size(0) - 1 - gid);
  o[2] = (uint)(int)(q - p);                    // ptrdiff_t
  o[3] = (uint)((intptr_t)(p + 3) - (intptr_t)p);
  S s[2];
  o[4] = (uint)((char *)&s[1].s - (char *)&s[0]);
  scratch[lid] = *p * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  o[5] = (uint)scratch[(lid + 1) % ls];
  local int *lp = scratch + ls - 1;
  o[6] = (uint)*(lp - lid);
  o[7] = (uint)atomic_add(counter, (int)gid + 1) >= 0u;   // old values vary; only the sum is checked
  atomic_max(counter + 1, *p);
  atomic_inc(counter + 2);
}
