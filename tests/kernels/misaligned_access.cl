// An int read and an int written through pointers cast from char pointers at
// odd offsets: each access is reported (misaligned access) and, as Oclgrind
// does, performed on the bytes that are there.  An out-of-bounds access in
// the same kernel stays suppressed.
kernel void misaligned_access(global const uchar *in, global int *out, global uchar *bytes)
{
  out[0] = *(global const int *)(in + 2);
  out[1] = *(global const int *)(in + 5);
  *(global int *)(bytes + 3) = 0x11223344;
  out[2] = *(global const int *)(in + 14);   // bytes 14..17 of 16: out of bounds
}
