package io.tracesync.core.network;

/**
 * The weighted least-squares offsets of a graph of pairwise measurements: z minimizing Σ w_l·(z_a − z_b − m_l)²
 * over the links l = (a, b), with z fixed at 0 on vertex 0 (the reference). Loops of the graph average out the
 * pairwise errors, the "network effect" of Geng et al. (NSDI 2018). The normal equations are the weighted graph
 * Laplacian without vertex 0's row and column, symmetric positive definite on the vertices connected to vertex 0,
 * solved by conjugate gradients with the diagonal as preconditioner, started from a given solution (the previous
 * one, so that few iterations follow small changes). Vertices not connected to vertex 0 keep their start value.
 */
final class LeastSquaresOffsets {

    /**
     * Iterations stop when every vertex's residual over its diagonal — the change one Jacobi step would make,
     * in the unit of z — is below this: far below the picosecond the estimate is rounded to.
     */
    private static final double TOLERANCE = 0.01;

    private final int n;
    private final int[] a;
    private final int[] b;
    private final double[] target;
    private final double[] weight;
    private final int m;
    private int iterations;

    /**
     * @param a,b the links' ends (vertices 0..n−1)
     * @param target m_l, the measured z_a − z_b
     * @param weight w_l ≥ 0; a link of weight 0 takes no part
     */
    LeastSquaresOffsets(int n, int[] a, int[] b, double[] target, double[] weight, int m) {
        this.n = n;
        this.a = a;
        this.b = b;
        this.target = target;
        this.weight = weight;
        this.m = m;
    }

    /** Conjugate-gradient iterations of the last {@link #solve}. */
    int iterations() {
        return iterations;
    }

    /**
     * Solves in place: {@code z} holds the start values and receives the solution; {@code connected[v]} tells
     * which vertices are connected to vertex 0 by links of positive weight.
     */
    void solve(double[] z, boolean[] connected) {
        z[0] = 0;
        double[] diag = new double[n];
        double[] r = new double[n];
        for (int l = 0; l < m; l++) {
            double w = weight[l];
            diag[a[l]] += w;
            diag[b[l]] += w;
            r[a[l]] += w * target[l];
            r[b[l]] -= w * target[l];
        }
        double[] lz = new double[n];
        multiply(z, lz);
        for (int v = 0; v < n; v++) {
            r[v] = v == 0 || !connected[v] ? 0 : r[v] - lz[v];
        }
        double[] p = new double[n];
        double[] q = new double[n];
        double rho = precondition(r, diag, p, connected);
        iterations = 0;
        while (largest(p) > TOLERANCE && iterations < 10 * n + 100) {
            iterations++;
            multiply(p, q);
            q[0] = 0;
            double pq = 0;
            for (int v = 1; v < n; v++) {
                if (connected[v]) {
                    pq += p[v] * q[v];
                }
            }
            if (!(pq > 0)) {
                break;
            }
            double alpha = rho / pq;
            for (int v = 1; v < n; v++) {
                if (connected[v]) {
                    z[v] += alpha * p[v];
                    r[v] -= alpha * q[v];
                }
            }
            double[] s = q; // q is not needed again this iteration: it receives the preconditioned residual
            double rhoNext = precondition(r, diag, s, connected);
            if (largest(s) <= TOLERANCE) {
                break;
            }
            double beta = rhoNext / rho;
            rho = rhoNext;
            for (int v = 1; v < n; v++) {
                p[v] = connected[v] ? s[v] + beta * p[v] : 0;
            }
        }
    }

    /** s = D⁻¹·r on the connected vertices; returns r·s. */
    private double precondition(double[] r, double[] diag, double[] s, boolean[] connected) {
        double rs = 0;
        s[0] = 0;
        for (int v = 1; v < n; v++) {
            s[v] = connected[v] && diag[v] > 0 ? r[v] / diag[v] : 0;
            rs += r[v] * s[v];
        }
        return rs;
    }

    private static double largest(double[] s) {
        double max = 0;
        for (double x : s) {
            max = Math.max(max, Math.abs(x));
        }
        return max;
    }

    /** out = L·x, the weighted Laplacian times x. */
    private void multiply(double[] x, double[] out) {
        java.util.Arrays.fill(out, 0);
        for (int l = 0; l < m; l++) {
            double d = weight[l] * (x[a[l]] - x[b[l]]);
            out[a[l]] += d;
            out[b[l]] -= d;
        }
    }
}
