// Data race: every work-item increments a counter atomically while one
// work-item of another subgroup reads it with a plain load.
kernel void race_atomic_plain(global int *counter, global int *out) {
  int lid = get_local_id(0);
  atomic_inc(counter);                             // @W
  if (lid == 20)
    out[0] = *counter;                             // @R
}
