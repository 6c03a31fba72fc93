W, H = 32, 16
IN = [float(v) for v in rand_ints(W * H, -10**6, 10**6, seed=67)]
out = [0.0] * (W * H)
for y in range(H):
    for x in range(W):
        out[x * H + y] = IN[y * W + x]
global_size = (W, H); local_size = (8, 8)
args = [In("float", IN), Out("float", W * H, expect=out), Scalar("int", W), Scalar("int", H)]
