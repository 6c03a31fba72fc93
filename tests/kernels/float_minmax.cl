// Float min, max, clamp, fmin, fmax, maxmag, minmag and smoothstep on zeros
// of both signs, NaNs and infinities: every one follows docs/semantics.md's
// fmin / fmax rule (a NaN operand gives the other; of equal operands fmin
// takes the one with the sign bit set, fmax the other), in every build, on
// both backends (the JIT compiles min, max, clamp, fmin and fmax inline).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void float_minmax(global const float *xs, global const float *ys, global const float *zs,
                         global float *r, global double *rd)
{
  size_t k = get_global_id(0);
  float x = xs[k], y = ys[k], z = zs[k];
  global float *o = r + 8 * k;
  o[0] = min(x, y);        o[1] = max(x, y);        o[2] = clamp(x, y, z);  o[3] = fmin(x, y);
  o[4] = fmax(x, y);       o[5] = maxmag(x, y);     o[6] = minmag(x, y);
  o[7] = clamp(x, -0.0f, 0.0f);
  double dx = x, dy = y, dz = z;
  rd[3 * k + 0] = min(dx, dy); rd[3 * k + 1] = max(dx, dy); rd[3 * k + 2] = clamp(dx, dy, dz);
}
