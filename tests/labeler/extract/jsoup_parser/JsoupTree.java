// Dumps the node tree jsoup 1.15.3 builds for each file, one base64 line per file:
// <name> ... </> for elements (#root for the document), [T:text] (adjacent text nodes
// merged), [CD:cdata], [D:data], [C:comment], [DT] for a doctype.
// Run: java -cp jsoup-1.15.3.jar JsoupTree.java FILE...  (single-file source launch, Java 11+)

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Base64;
import org.jsoup.Jsoup;
import org.jsoup.nodes.CDataNode;
import org.jsoup.nodes.Comment;
import org.jsoup.nodes.DataNode;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.DocumentType;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeVisitor;

public class JsoupTree {
    public static void main(String[] args) throws Exception {
        for (String p : args) {
            String html = new String(Files.readAllBytes(Paths.get(p)), StandardCharsets.UTF_8);
            Document d = Jsoup.parse(html);
            StringBuilder sb = new StringBuilder();
            d.traverse(new NodeVisitor() {
                public void head(Node node, int depth) {
                    if (node instanceof Element)
                        sb.append('<').append(((Element) node).tagName()).append('>');
                    else if (node instanceof CDataNode)
                        sb.append("[CD:").append(((TextNode) node).getWholeText()).append(']');
                    else if (node instanceof TextNode)
                        sb.append("[T:").append(((TextNode) node).getWholeText()).append(']');
                    else if (node instanceof DataNode)
                        sb.append("[D:").append(((DataNode) node).getWholeData()).append(']');
                    else if (node instanceof Comment)
                        sb.append("[C:").append(((Comment) node).getData()).append(']');
                    else if (node instanceof DocumentType)
                        sb.append("[DT]");
                }

                public void tail(Node node, int depth) {
                    if (node instanceof Element)
                        sb.append("</>");
                }
            });
            String merged = sb.toString().replace("][T:", "");
            System.out.println(
                    Base64.getEncoder().encodeToString(merged.getBytes(StandardCharsets.UTF_8)));
        }
    }
}
