// Data race: every work-item stores its own id to the same word, in one
// instruction; which store lands last is undefined (even in lockstep).
kernel void race_same_store(global int *out) {
  out[0] = (int)get_local_id(0);                   // @W
}
