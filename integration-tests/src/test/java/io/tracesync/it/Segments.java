package io.tracesync.it;

import java.util.ArrayList;
import java.util.List;

/** Straight segments of a drawing, {x1, y1, x2, y2}: which pairs cross. */
final class Segments {

    private Segments() {
    }

    /** Whether a and b cross at one point inside both (touching or sharing an end is not crossing). */
    static boolean cross(double[] a, double[] b) {
        return side(a, b[0], b[1]) * side(a, b[2], b[3]) < 0 && side(b, a[0], a[1]) * side(b, a[2], a[3]) < 0;
    }

    /** Every pair of the segments that cross, as "i×j", leaving out pairs that share an end. */
    static List<String> crossings(List<double[]> segments) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < segments.size(); i++) {
            for (int j = i + 1; j < segments.size(); j++) {
                double[] a = segments.get(i);
                double[] b = segments.get(j);
                if (!shareAnEnd(a, b) && cross(a, b)) {
                    out.add(i + "×" + j);
                }
            }
        }
        return out;
    }

    private static boolean shareAnEnd(double[] a, double[] b) {
        return same(a, 0, b, 0) || same(a, 0, b, 2) || same(a, 2, b, 0) || same(a, 2, b, 2);
    }

    private static boolean same(double[] a, int i, double[] b, int j) {
        return a[i] == b[j] && a[i + 1] == b[j + 1];
    }

    /** The sign of the turn from segment s to the point. */
    private static double side(double[] s, double x, double y) {
        return Math.signum((s[2] - s[0]) * (y - s[1]) - (s[3] - s[1]) * (x - s[0]));
    }
}
