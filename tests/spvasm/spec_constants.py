# Specialization constants: defaults, and overrides through --spec ID=VALUE.
import struct as _s
n = 4

def expect(a=7, b=100, t=True, f=False, l=0x100000000, x=1.5):
    m = 0xFFFFFFFF
    s = (a + b) & m
    shr = l >> 1
    row = [s, (s * 8) & m, int(a < b), a if t else b, (2 * b) & m,
           shr & m, (shr >> 8) & m, int(not f), int(t), f32_bits(x)]
    return row * n

def case(name, spec, **kw):
    return dict(name=name, spec_constants=spec, global_size=(n,), local_size=(n,),
                args=[Out("uint", 10 * n, expect=expect(**kw))])

CASES = [case("defaults", {}),
         case("ints", {1: 5, 2: 3}, a=5, b=3),
         case("bools", {3: 0, 4: 1}, t=False, f=True),
         case("wide", {1: 0xFFFFFFFF, 2: 2, 5: 0x123456789A}, a=0xFFFFFFFF, b=2, l=0x123456789A),
         case("float", {6: -0.375}, x=-0.375)]
