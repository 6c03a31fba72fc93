// fma (single rounding), mad on exact inputs, fmin/fmax/clamp/mix/step,
// copysign, fmod, ldexp, frexp: all exactly specified here.
kernel void math_fma_mad(global const float *a, global const float *b, global const float *c,
                         global float *r, global int *e)
{
  int i = get_global_id(0);
  float x = a[i], y = b[i], z = c[i];
  int ex;
  r[10*i+0] = fma(x, y, z);
  r[10*i+1] = mad(floor(x), 0.5f, floor(z));
  r[10*i+2] = fmin(x, y);
  r[10*i+3] = fmax(x, z);
  r[10*i+4] = clamp(x, -1.0f, 1.0f);
  r[10*i+5] = mix(0.0f, 8.0f, 0.25f * (float)(i & 3));
  r[10*i+6] = step(y, x);
  r[10*i+7] = copysign(x, y);
  r[10*i+8] = fmod(x, 0.75f);
  r[10*i+9] = ldexp(frexp(x, &ex), 3);
  e[i] = ex;
}
