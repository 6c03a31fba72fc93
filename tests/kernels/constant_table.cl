// Program-scope __constant arrays (scalars, vectors, a struct table),
// indexed by lane-dependent values: no specialization, just constant data.
typedef struct { int k; float w; } entry_t;
constant int primes[16] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
constant float4 weights[2] = {(float4)(0.5f, 0.25f, 2.0f, -1.0f), (float4)(8.0f, 1.0f, 0.125f, 3.0f)};
constant entry_t table[3] = {{1, 1.5f}, {-4, 0.75f}, {9, -2.0f}};
constant char msg[] = "spirv";
kernel void constant_table(global const int *idx, global int *oi, global float *of)
{
  int i = get_global_id(0);
  int k = idx[i];
  oi[3*i+0] = primes[k & 15];
  oi[3*i+1] = table[k % 3].k + msg[k % 5];
  oi[3*i+2] = primes[(k * 7) & 15] * primes[15 - (k & 15)];
  float4 w = weights[k & 1];
  of[2*i+0] = w.x + w.y * w.z - w.w;
  of[2*i+1] = table[k % 3].w * (float)k;
}
