// Reference harness for the jsoup-1.15.3 conformance tests and the extraction benchmark.
//
// Runs Jsoup.parse(file, null).body().text() over many files in ONE JVM so the JVM start is
// paid once. Paths come as arguments, or one per line on stdin when the only argument is "-".
// For each path it prints one line: "OK <base64 of the text as UTF-16BE code units>" (lossless,
// lone surrogates included) or "ERR <exception>". With "--quiet" it prints only a final count
// (used by the benchmark, so output encoding does not weigh on jsoup's time). With
// "--passes N" (implies --quiet) it runs over all paths N times in this JVM and prints each
// pass's wall time and the main thread's CPU time ("pass=K ns=T cpu=C chars=N"): the later
// passes are the warm, JIT-compiled figure.
//
// Run: java -cp /usr/share/java/jsoup-1.15.3.jar JsoupText.java [--quiet] [--passes N] (- | FILE...)
// (or compile it once with javac and run the class: the benchmark does, so that the harness's
// compilation is not timed as jsoup's).
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.jsoup.Jsoup;

public class JsoupText {
    public static void main(String[] args) throws Exception {
        boolean quiet = false;
        int passes = 0;
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--quiet")) {
                quiet = true;
            } else if (a.equals("--passes")) {
                passes = Integer.parseInt(args[++i]);
                quiet = true;
            } else if (a.equals("-")) {
                BufferedReader in = new BufferedReader(
                        new InputStreamReader(System.in, StandardCharsets.UTF_8));
                for (String line; (line = in.readLine()) != null; ) {
                    if (!line.isEmpty()) paths.add(line);
                }
            } else {
                paths.add(a);
            }
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.US_ASCII);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int pass = 1; pass <= passes; pass++) {
            long started = System.nanoTime();
            long cpu = threads.getCurrentThreadCpuTime();
            long passChars = 0;
            for (String p : paths) {
                passChars += Jsoup.parse(new File(p), null).body().text().length();
            }
            long wall = System.nanoTime() - started;
            cpu = threads.getCurrentThreadCpuTime() - cpu;
            out.println("pass=" + pass + " ns=" + wall + " cpu=" + cpu + " chars=" + passChars);
        }
        if (passes > 0) {
            out.flush();
            return;
        }
        Base64.Encoder b64 = Base64.getEncoder();
        long chars = 0;
        for (String p : paths) {
            try {
                String text = Jsoup.parse(new File(p), null).body().text();
                chars += text.length();
                if (!quiet) out.println("OK " + b64.encodeToString(text.getBytes(StandardCharsets.UTF_16BE)));
            } catch (Exception e) {
                if (!quiet) out.println("ERR " + e.toString().replace('\n', ' '));
            }
        }
        if (quiet) out.println("files=" + paths.size() + " chars=" + chars);
        out.flush();
    }
}
