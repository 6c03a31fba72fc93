// shuffle / shuffle2 with lane-dependent masks (mask bits above the
// needed ones are ignored).
kernel void shuffle(global const int8 *a, global const int8 *b, global const uint8 *m, global int8 *r)
{
  int i = get_global_id(0);
  r[3*i+0] = shuffle(a[i], m[i]);
  r[3*i+1] = shuffle2(a[i], b[i], m[i]);
  int4 s = shuffle(a[i].lo, (uint4)(3, 2, 1, 0));
  r[3*i+2] = (int8)(s, shuffle2(a[i].lo, b[i].hi, m[i].lo + (uint4)(8)));
}
