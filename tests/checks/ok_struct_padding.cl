// Correct: a struct with padding stored to global memory member by member
// and whole (the padding bytes are never written).
typedef struct { char c; int i; short s; } item_t;
kernel void ok_struct_padding(global item_t *out) {
  item_t t;
  t.c = 'a';
  t.i = get_global_id(0);
  t.s = 7;
  out[get_global_id(0)] = t;
}
