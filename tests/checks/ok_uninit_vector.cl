// Correct: a partially initialized vector whose set components only are used.
kernel void ok_uninit_vector(global float *out) {
  float4 v;
  v.x = 1.0f;
  v.y = 2.0f;
  float4 w = v * 2.0f;
  out[get_global_id(0)] = v.x + v.y + w.x;
}
