// The other side of dbx-bench's HdrHistogram interoperability test (tests/hdr_interop_test.cc): a few
// lines against HdrHistogram's own Java implementation (Debian's libhdrhistogram-java).
//
//   summarize-log FILE...     every tag's histogram accumulated over the interval logs, one line each
//   summarize-base64 B64...   one line per V2 compressed histogram given in base64
//   write-log FILE SEED       writes an interval log with HistogramLogWriter (untagged and Tag=read lines),
//                             printing the summary of what it wrote
//   encode-vector LOWEST      the base64 of a fixed histogram with this lowest discernible value
//
// A summary line: tag count min max p50 p90 p99 p99.9 (values in the histogram's unit; tag "-" for none).
import java.io.File;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Random;
import java.util.TreeMap;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

public class HdrInterop {
    static String summary(String tag, Histogram h) {
        return String.format("%s %d %d %d %d %d %d %d", tag == null ? "-" : tag, h.getTotalCount(),
                h.getMinValue(), h.getMaxValue(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
                h.getValueAtPercentile(99), h.getValueAtPercentile(99.9));
    }

    static Histogram decode(String base64) throws Exception {
        ByteBuffer buffer = ByteBuffer.wrap(Base64.getDecoder().decode(base64));
        return Histogram.decodeFromCompressedByteBuffer(buffer, 0);
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "summarize-log": {
                TreeMap<String, Histogram> byTag = new TreeMap<>();
                int intervals = 0;
                for (int f = 1; f < args.length; ++f) {
                    HistogramLogReader reader = new HistogramLogReader(new File(args[f]));
                    EncodableHistogram e;
                    while ((e = reader.nextIntervalHistogram()) != null) {
                        Histogram h = (Histogram) e;
                        String tag = h.getTag() == null ? "-" : h.getTag();
                        byTag.computeIfAbsent(tag, t -> new Histogram(h.getLowestDiscernibleValue(),
                                h.getHighestTrackableValue(), h.getNumberOfSignificantValueDigits())).add(h);
                        ++intervals;
                    }
                    reader.close();
                }
                System.out.println("intervals " + intervals);
                for (var entry : byTag.entrySet()) System.out.println(summary(entry.getKey(), entry.getValue()));
                break;
            }
            case "summarize-base64":
                for (int i = 1; i < args.length; ++i) System.out.println(summary(null, decode(args[i])));
                break;
            case "write-log": {
                Random random = new Random(Long.parseLong(args[2]));
                Histogram all = new Histogram(1, 3600000000000L, 3);
                Histogram reads = new Histogram(1, 3600000000000L, 3);
                try (PrintStream out = new PrintStream(new File(args[1]))) {
                    HistogramLogWriter writer = new HistogramLogWriter(out);
                    writer.outputLogFormatVersion();
                    long startMs = 1764547200000L;  // 2025-12-01T00:00:00Z
                    writer.outputStartTime(startMs);
                    writer.setBaseTime(startMs);
                    writer.outputBaseTime(startMs);
                    writer.outputLegend();
                    for (int second = 0; second < 5; ++second) {
                        Histogram interval = new Histogram(1, 3600000000000L, 3);
                        Histogram readInterval = new Histogram(1, 3600000000000L, 3);
                        for (int i = 0; i < 20000; ++i) {
                            long v = (long) Math.exp(9.0 + 1.5 * random.nextGaussian());
                            interval.recordValue(v);
                            if (i % 3 == 0) readInterval.recordValue(v);
                        }
                        for (Histogram h : new Histogram[] {interval, readInterval}) {
                            h.setStartTimeStamp(startMs + 1000L * second);
                            h.setEndTimeStamp(startMs + 1000L * (second + 1));
                        }
                        readInterval.setTag("read");
                        writer.outputIntervalHistogram(interval);
                        writer.outputIntervalHistogram(readInterval);
                        all.add(interval);
                        reads.add(readInterval);
                    }
                }
                System.out.println(summary(null, all));
                System.out.println(summary("read", reads));
                break;
            }
            case "encode-vector": {
                Histogram h = new Histogram(Long.parseLong(args[1]), 3600000000000L, 3);
                for (long v : new long[] {1, 2, 3, 1000, 1000, 2048, 123456, 1000000000L})
                    h.recordValue(v);
                ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
                int n = h.encodeIntoCompressedByteBuffer(buffer);
                byte[] bytes = new byte[n];
                buffer.rewind();
                buffer.get(bytes);
                System.out.println(Base64.getEncoder().encodeToString(bytes));
                break;
            }
            default:
                System.err.println("HdrInterop: unknown command " + args[0]);
                System.exit(2);
        }
    }
}
