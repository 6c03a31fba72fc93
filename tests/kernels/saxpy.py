# a*x+y with values where the product and the sum are exact (so fma
# contraction cannot change the result).
n = 256
xs = rand_floats(n, -64, 64, seed=1, digits=4)
ys = rand_floats(n, -64, 64, seed=2, digits=4)
a = 2.5
global_size = (n,); local_size = (64,)
args = [Scalar("float", a), In("float", xs),
        InOut("float", ys, expect=[a * x + y for x, y in zip(xs, ys)])]
