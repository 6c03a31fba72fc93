# in = {1.0, 1e30, -3.75, 2147483648.5}: NaN -> 0; +1e30 -> INT64_MAX, low
# 32 bits -1; -1e30 -> INT64_MIN, low 32 bits 0; -3.75 -> -3; 2^31 + 0.5 ->
# 2^31, low 32 bits as int -2147483648; %ld keeps 64 bits: -3 and 3.
global_size = (1,)
args = [In("float", [1.0, 1e30, -3.75, 2147483648.5])]
printf = "0 -1 0 -3 -2147483648 -3 3\n"
