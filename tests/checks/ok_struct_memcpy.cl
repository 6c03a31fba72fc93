// Correct: padded structs copied whole between private arrays (memcpy) and
// then to global memory.
typedef struct { char c; double d; char e; } rec_t;
kernel void ok_struct_memcpy(global rec_t *out) {
  rec_t a[2];
  a[0].c = 1; a[0].d = 2.5; a[0].e = 3;
  a[1] = a[0];
  out[get_global_id(0)] = a[1];
}
