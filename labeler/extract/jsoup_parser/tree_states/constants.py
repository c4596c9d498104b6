"""jsoup's ``HtmlTreeBuilderState.Constants`` as frozensets of normal names, with
``HtmlTreeBuilder.TagSearchSpecial`` (the builder imports it from the package) and
``Attribute.booleanAttributes``.

Follows jsoup 1.15.3's HtmlTreeBuilderState (MIT licence, (c) Jonathan Hedley).
"""

from __future__ import annotations


def _f(names: str) -> frozenset[str]:
    return frozenset(names.split())


# HtmlTreeBuilderState.Constants
InHeadEmpty = _f("base basefont bgsound command link")
InHeadRaw = _f("noframes style")
InHeadEnd = _f("body br html")
AfterHeadBody = _f("body br html")
BeforeHtmlToHead = _f("body br head html")
InHeadNoScriptHead = _f("basefont bgsound link meta noframes style")
InBodyStartToHead = _f(
    "base basefont bgsound command link meta noframes script style template title"
)
InBodyStartPClosers = _f(
    "address article aside blockquote center details dir div dl fieldset figcaption figure"
    " footer header hgroup menu nav ol p section summary ul"
)
Headings = _f("h1 h2 h3 h4 h5 h6")
InBodyStartLiBreakers = _f("address div p")
DdDt = _f("dd dt")
InBodyStartApplets = _f("applet marquee object")
InBodyStartMedia = _f("param source track")
InBodyStartInputAttribs = _f("action name prompt")
InBodyStartDrop = _f("caption col colgroup frame head tbody td tfoot th thead tr")
InBodyEndClosers = _f(
    "address article aside blockquote button center details dir div dl fieldset figcaption"
    " figure footer header hgroup listing menu nav ol pre section summary ul"
)
InBodyEndAdoptionFormatters = _f("a b big code em font i nobr s small strike strong tt u")
InBodyEndTableFosters = _f("table tbody tfoot thead tr")
InTableToBody = _f("tbody tfoot thead")
InTableAddBody = _f("td th tr")
InTableToHead = _f("script style template")
InCellNames = _f("td th")
InCellBody = _f("body caption col colgroup html")
InCellTable = _f("table tbody tfoot thead tr")
InCellCol = _f("caption col colgroup tbody td tfoot th thead tr")
InTableEndErr = _f("body caption col colgroup html tbody td tfoot th thead tr")
InTableFoster = _f("table tbody tfoot thead tr")
InTableBodyExit = _f("caption col colgroup tbody tfoot thead")
InTableBodyEndIgnore = _f("body caption col colgroup html td th tr")
InRowMissing = _f("caption col colgroup tbody tfoot thead tr")
InRowIgnore = _f("body caption col colgroup html td th")
InSelectEnd = _f("input keygen textarea")
InSelectTableEnd = _f("caption table tbody td tfoot th thead tr")
InTableEndIgnore = _f("tbody tfoot thead")
InHeadNoscriptIgnore = _f("head noscript")
InCaptionIgnore = _f("body col colgroup html tbody td tfoot th thead tr")
InTemplateToHead = _f("base basefont bgsound link meta noframes script style template title")
InTemplateToTable = _f("caption colgroup tbody tfoot thead")

MAX_STACK_SCAN = 24  # InBody: dd / dt scan

# HtmlTreeBuilder.TagSearchSpecial (isSpecial); the builder imports it from here.
TAG_SEARCH_SPECIAL = _f(
    "address applet area article aside base basefont bgsound blockquote body br button"
    " caption center col colgroup command dd details dir div dl dt embed fieldset"
    " figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr"
    " html iframe img input isindex li link listing marquee menu meta nav noembed noframes"
    " noscript object ol p param plaintext pre script section select style summary table"
    " tbody td textarea tfoot th thead title tr ul wbr xmp"
)

# Attribute.booleanAttributes (for Token.toString in InHeadNoscript's "anything else")
BOOLEAN_ATTRIBUTES = _f(
    "allowfullscreen async autofocus checked compact declare default defer disabled formnovalidate hidden inert ismap itemscope multiple muted nohref noresize noshade novalidate nowrap open readonly required reversed seamless selected sortable truespeed typemustmatch"
)
