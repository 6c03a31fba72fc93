/* Prefix sum, scan + carry: each subgroup scans a chunk of 256 inputs in 16
 * steps of 16 (sub_group_scan_inclusive_add), carrying the running total
 * from lane 15 (sub_group_broadcast).  NDRange n/16. */
__attribute__((intel_reqd_sub_group_size(16)))
kernel void scan(global const uint *in, global uint *out)
{
  uint lane = get_sub_group_local_id();
  size_t base = (get_global_id(0) - lane) * 16;
  uint carry = 0;
  for (int s = 0; s < 16; s++) {
    uint p = sub_group_scan_inclusive_add(in[base + s * 16 + lane]) + carry;
    out[base + s * 16 + lane] = p;
    carry = sub_group_broadcast(p, 15);
  }
}
