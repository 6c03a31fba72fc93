// Many work-groups that print: the text must not depend on -j (printf is
// buffered per work-group and emitted in linear work-group order).
kernel void cov_printf_threads(global const int *in, global int *out) {
  size_t g = get_global_id(0);
  int v = in[g];
  printf("wg %u lane %u: v=%d x=%08x\n", (uint)get_group_id(0), (uint)get_local_id(0), v, (uint)v);
  if (v & 1)
    printf("  odd %d half=%.2f\n", v, (float)v * 0.5f);
  out[g] = v * 2 + 1;
  printf("  done %s\n", (g & 2) ? "B" : "A");
}
