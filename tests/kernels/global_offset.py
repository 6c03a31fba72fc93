GX, GY, LX, LY, OX, OY = 8, 4, 4, 2, 100, 7
out = []
for y in range(GY):
    for x in range(GX):
        out += [x + OX, y + OY, OX * 1000 + OY, (x // LX) * 10 + y // LY]
global_size = (GX, GY); local_size = (LX, LY); global_offset = (OX, OY)
args = [Out("int", len(out), expect=out)]
