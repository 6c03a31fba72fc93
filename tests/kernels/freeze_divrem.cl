// x / w next to x % w: clang -O1 and up computes the remainder from the
// quotient and puts an LLVM freeze on x, which llvm-spirv-15 cannot
// translate.  The tool compiles the module again with each freeze replaced
// by its operand, and warns.  (2-D indices from a 1-D id, the usual use.)
kernel void freeze_divrem(global const uint *in, global uint *out, uint w)
{
  uint i = get_global_id(0);
  uint x = in[i];
  out[2 * i] = x / w;
  out[2 * i + 1] = x % w;
}
