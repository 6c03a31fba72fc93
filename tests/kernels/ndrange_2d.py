GX, GY, LX, LY = 12, 8, 4, 2
out = [0] * (10 * GX * GY)
for y in range(GY):
    for x in range(GX):
        o = 10 * (y * GX + x)
        out[o:o+10] = [x, y, x % LX, y % LY, x // LX, y // LY, (GX // LX) * 100 + GY // LY,
                       LX * 100 + LY, None, GY * 1000 + (y % LY) * LX + x % LX]
# get_work_dim() (None): a .sim run file always gives three sizes, so the
# tool may report 2 or 3 here.
global_size = (GX, GY); local_size = (LX, LY)
args = [Out("int", len(out), expect=out)]
