// Dumps Jsoup.parse(String).getAllElements() names and attributes, then every comment,
// doctype and data node, one base64 line per file (UTF-8 file in, lone surrogates out as '?').
// Run: java -cp jsoup-1.15.3.jar JsoupDom.java FILE...  (single-file source launch, Java 11+)

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Base64;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Attribute;
import org.jsoup.nodes.Comment;
import org.jsoup.nodes.DataNode;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.DocumentType;
import org.jsoup.nodes.Element;

public class JsoupDom {
    public static void main(String[] args) throws Exception {
        for (String p : args) {
            String html = new String(Files.readAllBytes(Paths.get(p)), StandardCharsets.UTF_8);
            Document d = Jsoup.parse(html);
            StringBuilder sb = new StringBuilder();
            for (Element e : d.getAllElements()) {
                sb.append(e.tagName());
                for (Attribute at : e.attributes())
                    sb.append('\u0001').append(at.getKey()).append('\u0002').append(at.getValue());
                sb.append('\u0003');
            }
            d.traverse((node, depth) -> {
                if (node instanceof Comment)
                    sb.append("C:").append(((Comment) node).getData()).append('\u0003');
                if (node instanceof DocumentType) {
                    DocumentType t = (DocumentType) node;
                    sb.append("D:").append(t.name()).append('|').append(t.publicId()).append('|')
                            .append(t.systemId()).append('\u0003');
                }
                if (node instanceof DataNode)
                    sb.append("DN:").append(((DataNode) node).getWholeData()).append('\u0003');
            });
            byte[] out = sb.toString().getBytes(StandardCharsets.UTF_8);
            System.out.println(Base64.getEncoder().encodeToString(out));
        }
    }
}
