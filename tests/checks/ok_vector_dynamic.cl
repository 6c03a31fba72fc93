// Correct: a vector filled through run-time indices, only the written
// components read back.
kernel void ok_vector_dynamic(global float *out, global const int *idx) {
  float4 v;
  int i = idx[get_global_id(0)] & 1;
  v[i] = 3.0f;
  v[1 - i] = 4.0f;
  out[get_global_id(0)] = v[i] + v[1 - i];
}
