X, Y, Z = 8, 4, 6
LX, LY, LZ = 4, 2, 3
V = rand_ints(X * Y * Z, -100, 100, seed=69)
out, ids = [], []
for z in range(Z):
    for y in range(Y):
        for x in range(X):
            i = (z * Y + y) * X + x
            s = V[i] + (V[i-1] if x > 0 else 0) + (V[i+X] if y + 1 < Y else 0) - (V[i-X*Y] if z > 0 else 0)
            out.append(s)
            ids += [(z // LZ) * 100 + (y // LY) * 10 + x // LX, (z % LZ) * 100 + (y % LY) * 10 + x % LX, 3, Z]
global_size = (X, Y, Z); local_size = (LX, LY, LZ)
args = [In("int", V), Out("int", len(out), expect=out), Out("int", len(ids), expect=ids)]
