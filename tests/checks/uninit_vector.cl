// Partially initialized vector: z is used without being set.
kernel void uninit_vector(global float *out) {
  float4 v;
  v.x = 1.0f;
  v.y = 2.0f;
  out[get_global_id(0)] = v.x + v.z;               // @U
}
