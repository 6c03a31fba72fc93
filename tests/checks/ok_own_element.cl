// Correct: each work-item reads and writes only its own elements, across
// work-groups, and reads back what it wrote itself (program order, one
// work-item): the data-parallel common case, which must give no report.
kernel void ok_own_element(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * 2;
  out[i] += in[(i + 1) % get_global_size(0)];   // reads of in only: no conflict
}
