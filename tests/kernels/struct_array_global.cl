// An array of structs in global memory (with padding between members):
// read, modify and write back whole structs and single members.
typedef struct { char tag; int count; double sum; short hist[3]; } item_t;
kernel void struct_array_global(global item_t *items, global const int *vals)
{
  int i = get_global_id(0);
  item_t it = items[i];
  int v = vals[i];
  it.count += 1;
  it.sum += (double)v * 0.5;
  it.hist[v & 1] += (short)v;
  it.tag = (char)('a' + (i % 26));
  items[i] = it;
  if (i > 0) items[i - 1].hist[2] = (short)i;   /* neighbour's member */
}
