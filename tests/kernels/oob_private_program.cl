// Out-of-bounds reads of a private array (a char[2] inside a volatile struct,
// indexed by the global id: index 2 is still inside the struct, index 3 is
// past it) and of program-scope global and constant arrays: each is
// reported and yields 0, as Oclgrind reports them.
typedef struct { char a; char b[2]; char c; } S;
constant int c_arr[2] = {1, 2};
global int g_arr[2] = {7, 42};

kernel void oob_private_program(global int *out)
{
  size_t i = get_global_id(0);
  volatile S s = {1, {2, 3}, 4};
  out[i] = s.b[i];
  out[4 + i] = c_arr[i] + g_arr[i];
}
