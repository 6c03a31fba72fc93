# One work-group of 20: subgroup lanes sl = 0..15 then 0..3 (subgroups of
# 16).  inf[0] = 1.0, so fmax(1, 3) = 3 != 0.5 and a = m = 25 everywhere.
# select(a, s, c) = c ? s : a, three times: s -= (c ? s : a) + 1.
G = 20
M32 = 0xffffffff
OUT = [0] * 160
for g in range(G):
    sl = g % 16 if g < 16 else g - 16
    a = 25
    s = 0
    for _ in range(3):
        s = (s - ((s if sl < 12 else a) + 1)) & M32
    OUT[g * 8] = a
    OUT[g * 8 + 3] = 25
    OUT[g * 8 + 6] = s
    OUT[g * 8 + 7] = a
global_size = (G,); local_size = (G,)
subgroup_sizes = [None]
args = [In("uint", [100, 101, 102, 103]), In("float", [1.0] * 4), Out("uint", 160, expect=OUT), Scalar("uint", 25)]
# Once more as session 17 compiled it (SPIRV_SG_JIT_NO_TEST_ADDR=1), the code
# shape that met the miscompile: GCC 12's RTL dead-store pass replaced the
# frame copy's load of the condition's upper half by the constant its store
# wrote, {1,1,1,1,0,0,0,0}, and the x86 back end materialized that 256-bit
# constant as a broadcast of 1 (ix86_convert_const_wide_int_to_broadcast
# compares only the constant's nonzero 64-bit words).  The JIT compiles
# with -fno-dse since.
CASES = [dict(), dict(name="test_addr", env={"SPIRV_SG_JIT_NO_TEST_ADDR": "1"})]
