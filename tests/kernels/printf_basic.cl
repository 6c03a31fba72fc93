// printf: %d (negative), %u, %x, %c, %s (constant string and literal),
// %f/%e/%g, %v4f and %v2hd vector formats, %%; output order is by
// work-item within this single group of four.
constant char name[] = "spirv-sg";
kernel void printf_basic(global const int *in)
{
  int i = get_global_id(0);
  int v = in[i];
  if (i == 0) {
    printf("hello %s from %s\n", "world", name);
    printf("%5.2f|%e|%g|%%|%c\n", 3.14159f, 1234.5f, 0.0001f, 'Z');
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (i == 1) printf("v=%d u=%u x=%x\n", v, (uint)v, v);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (i == 2) printf("vec %v4f|%v2hd\n", (float4)(1.0f, -2.5f, 0.125f, 1e3f), (short2)(-3, 7));
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (i == 3) printf("%ld %lu %03d end\n", (long)v * 1000000000L, 18446744073709551615UL, 7);
}
