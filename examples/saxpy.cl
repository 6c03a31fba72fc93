/* saxpy: y = a*x + y, one element per work-item. */
__kernel void saxpy(__global const float *x, __global float *y, float a)
{
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
