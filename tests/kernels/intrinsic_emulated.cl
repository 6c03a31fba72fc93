// Byte swaps: clang lowers __builtin_bswap* to llvm.bswap.*, which
// llvm-spirv-15 emulates with functions it defines in the module
// (spirv.llvm_bswap_i16/i32/i64) after the kernel that calls them.
kernel void intrinsic_emulated(global const ulong *in, global uint *o32, global ushort *o16,
                               global ulong *o64)
{
  size_t i = get_global_id(0);
  ulong v = in[i];
  o32[i] = __builtin_bswap32((uint)v);
  o16[i] = __builtin_bswap16((ushort)v);
  o64[i] = __builtin_bswap64(v);
}
