// __attribute__((packed)) structs in global, local and private memory: the
// module declares the accesses unaligned (Aligned 1 operands), so none is a
// fault, and the values are the bytes at their packed offsets.
typedef struct __attribute__((packed)) { char c; int i; short s; float f; } P;   // 11 bytes

kernel void packed_struct(global P *in, global int *out)
{
  size_t g = get_global_id(0);
  local P lp[4];
  P loc = in[g];                 // private copy
  lp[g] = loc;
  lp[g].i += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = lp[g].i + lp[g].s + (int)lp[g].f + lp[g].c;
  in[g].i = (int)g * 100;        // a write at byte 11*g + 1
  in[g].f = 0.5f;
}
