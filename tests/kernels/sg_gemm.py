# Expected: the matrix product (small integer values: every sum is exact).
CASES = []
for T, M, K, N in ((8, 16, 32, 24), (16, 32, 48, 32)):
    A = [float(v) for v in rand_ints(M * K, -8, 8, seed=T)]
    B = [float(v) for v in rand_ints(K * N, -8, 8, seed=T + 1)]
    Cm = [sum(A[i * K + k] * B[k * N + j] for k in range(K)) for i in range(M) for j in range(N)]
    CASES.append(dict(name="t%d" % T, defines={"T": T}, global_size=(N, M // T), local_size=(T, 1),
                      args=[In("float", A), In("float", B), Out("float", M * N, expect=Cm),
                            Scalar("int", K), Scalar("int", N)]))
std = "CL2.0"
