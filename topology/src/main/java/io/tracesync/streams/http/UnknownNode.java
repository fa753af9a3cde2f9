package io.tracesync.streams.http;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * What to answer when a node is asked for that has no factor: the node it most likely means (its name but for case
 * or the zeros its number is padded with, as n3 for n03; else the one name a single edit away), or else what the
 * names look like.
 */
final class UnknownNode {

    /** How many names an answer shows when it cannot tell which one was meant. */
    static final int SHOWN = 5;

    private UnknownNode() {
    }

    /** The answer's message for {@code asked}, among the nodes that have a factor. */
    static String message(String asked, Collection<String> known) {
        String meant = meant(asked, known);
        if (meant != null) {
            return "no factor for node " + asked + "; did you mean " + meant + "?";
        }
        if (known.isEmpty()) {
            return "no factor for node " + asked + ": no node has one yet";
        }
        List<String> some = new ArrayList<>(new TreeSet<>(known)).subList(0, Math.min(SHOWN, known.size()));
        return "no factor for node " + asked + "; nodes with one: " + String.join(", ", some)
                + (known.size() > SHOWN ? ", … (" + known.size() + " in all)" : "");
    }

    /** The one known name {@code asked} means, or null if there is none or more than one. */
    static String meant(String asked, Collection<String> known) {
        String plain = plain(asked);
        String found = null;
        for (String k : known) {
            if (plain(k).equals(plain)) {
                if (found != null) {
                    return null;
                }
                found = k;
            }
        }
        if (found != null) {
            return found;
        }
        for (String k : known) {
            if (oneEditApart(asked, k)) {
                if (found != null) {
                    return null;
                }
                found = k;
            }
        }
        return found;
    }

    /** The name in lower case with every number's leading zeros dropped: n03 and N3 are both n3. */
    private static String plain(String name) {
        StringBuilder b = new StringBuilder();
        String lower = name.toLowerCase(Locale.ROOT);
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            boolean padding = c == '0' && (i == 0 || !Character.isDigit(lower.charAt(i - 1)))
                    && i + 1 < lower.length() && Character.isDigit(lower.charAt(i + 1));
            if (padding) {
                int j = i;
                while (j + 1 < lower.length() && lower.charAt(j) == '0' && Character.isDigit(lower.charAt(j + 1))) {
                    j++;
                }
                i = j - 1;
                continue;
            }
            b.append(c);
        }
        return b.toString();
    }

    /** Whether one character inserted, deleted or replaced makes {@code a} into {@code b}. */
    private static boolean oneEditApart(String a, String b) {
        if (a.equals(b) || Math.abs(a.length() - b.length()) > 1) {
            return false;
        }
        String shorter = a.length() <= b.length() ? a : b;
        String longer = shorter == a ? b : a;
        int i = 0;
        while (i < shorter.length() && shorter.charAt(i) == longer.charAt(i)) {
            i++;
        }
        int skip = shorter.length() == longer.length() ? 1 : 0;
        return shorter.substring(i + skip).equals(longer.substring(i + 1));
    }
}
