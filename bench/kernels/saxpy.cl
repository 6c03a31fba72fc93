/* saxpy: y = a*x + y, one element per work-item (no subgroup operations:
 * this file is both the subgroup-suite row and its plain form). */
kernel void saxpy(global const float *x, global float *y, float a)
{
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
