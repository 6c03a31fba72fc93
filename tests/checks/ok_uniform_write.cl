// Correct (Oclgrind's rule): every work-item writes the same value to the
// same word; the writes cannot give another result in any order.
kernel void ok_uniform_write(global const int *in, global int *flag) {
  if (in[get_global_id(0)] >= 0)
    flag[0] = 1;
}
