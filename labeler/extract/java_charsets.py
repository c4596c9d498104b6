"""Java charset names and aliases (JDK 17), mapped to the Python codec that decodes them.

jsoup resolves a ``<meta charset>`` with ``Charset.isSupported``/``Charset.forName``, which
accept a charset's canonical name or any alias, case-insensitively. This table lists every
JDK 17 charset that has a Python codec (generated from ``Charset.availableCharsets()``);
for valid input the two decoders agree. JDK charsets without a Python codec (EBCDIC variants,
ISO-2022-CN, ...) are absent: pages declaring them fall back to UTF-8.
"""

from __future__ import annotations

# One line per charset (long alias lists continue on a second line with the same codec):
# "<python codec>: <java name> <alias> ...", all lower-case.
_TABLE = """
big5: big5 csbig5
big5hkscs: big5-hkscs big5hk big5_hkscs big5hkscs
euc_jp: euc-jp cseucpkdfmtjapanese x-euc-jp eucjis
euc_jp: extended_unix_code_packed_format_for_japanese euc_jp eucjp x-eucjp
euc_kr: euc-kr ksc5601-1987 cseuckr ksc5601_1987 ksc5601 5601 euc_kr ksc_5601 ks_c_5601-1987
euc_kr: euckr
gb18030: gb18030 gb18030-2022
gb2312: gb2312 euc-cn x-euc-cn euccn euc_cn gb2312-80 gb2312-1980
gbk: gbk cp936 windows-936
cp858: ibm00858 pc-multilingual-850+euro ibm858 cp858 858 cp00858 ibm-858 ccsid00858
cp1140: ibm01140 ibm1140 ebcdic-us-037+euro cp1140 ibm-1140 1140 cp01140 ccsid01140
cp037: ibm037 cp037 ibm-037 csibm037 ebcdic-cp-us ebcdic-cp-ca ebcdic-cp-nl ebcdic-cp-wt 037
cp037: cpibm37 cs-ebcdic-cp-wt ibm-37 cs-ebcdic-cp-us cs-ebcdic-cp-ca cs-ebcdic-cp-nl
cp1026: ibm1026 cp1026 ibm-1026 1026
cp273: ibm273 ibm-273 273 cp273
cp424: ibm424 ebcdic-cp-he csibm424 ibm-424 424 cp424
cp437: ibm437 437 ibm-437 cspc8codepage437 cp437 windows-437
cp500: ibm500 ibm-500 500 ebcdic-cp-bh ebcdic-cp-ch csibm500 cp500
cp775: ibm775 ibm-775 775 cp775
cp850: ibm850 cp850 cspc850multilingual 850 ibm-850
cp852: ibm852 cspcp852 ibm-852 852 cp852
cp855: ibm855 855 ibm-855 cp855 cspcp855
cp857: ibm857 857 cp857 csibm857 ibm-857
cp860: ibm860 860 cp860 csibm860 ibm-860
cp861: ibm861 cp861 861 ibm-861 cp-is csibm861
cp862: ibm862 csibm862 cp862 862 cspc862latinhebrew ibm-862
cp863: ibm863 csibm863 ibm-863 863 cp863
cp864: ibm864 csibm864 ibm-864 864 cp864
cp865: ibm865 ibm-865 csibm865 cp865 865
cp866: ibm866 866 ibm-866 csibm866 cp866
cp869: ibm869 cp869 869 ibm-869 cp-gr csibm869
iso2022_jp: iso-2022-jp csjisencoding iso2022jp jis_encoding jis csiso2022jp
iso2022_jp_2: iso-2022-jp-2 csiso2022jp2 iso2022jp2
iso2022_kr: iso-2022-kr csiso2022kr iso2022kr
iso8859-1: iso-8859-1 819 iso8859-1 l1 iso_8859-1:1987 iso_8859-1 8859_1 iso-ir-100 latin1
iso8859-1: cp819 iso8859_1 ibm819 iso_8859_1 ibm-819 csisolatin1
iso8859-13: iso-8859-13 iso_8859-13 iso8859-13 iso8859_13 8859_13
iso8859-15: iso-8859-15 csiso885915 latin-9 iso8859-15 latin0 iso8859_15_fdis iso8859_15
iso8859-15: cp923 8859_15 l9 ibm923 csisolatin9 iso_8859-15 ibm-923 csisolatin0 923 latin9
iso8859-16: iso-8859-16 iso_8859-16:2001 iso_8859-16 csiso885916 latin10 iso-ir-226 l10
iso8859-16: iso8859_16
iso8859-2: iso-8859-2 iso8859-2 ibm912 l2 iso_8859-2 8859_2 cp912 iso_8859-2:1987 iso8859_2
iso8859-2: iso-ir-101 latin2 912 csisolatin2 ibm-912
iso8859-3: iso-8859-3 iso8859-3 ibm913 8859_3 l3 cp913 iso_8859-3 iso8859_3 latin3
iso8859-3: csisolatin3 913 iso_8859-3:1988 ibm-913 iso-ir-109
iso8859-4: iso-8859-4 8859_4 latin4 l4 cp914 iso_8859-4:1988 ibm914 iso_8859-4 iso-ir-110
iso8859-4: iso8859_4 csisolatin4 iso8859-4 914 ibm-914
iso8859-5: iso-8859-5 iso_8859-5:1988 csisolatincyrillic iso-ir-144 iso8859_5 cp915 8859_5
iso8859-5: ibm-915 iso_8859-5 ibm915 915 cyrillic iso8859-5
iso8859-6: iso-8859-6 asmo-708 8859_6 iso8859_6 iso_8859-6 csisolatinarabic ibm1089 arabic
iso8859-6: ibm-1089 1089 ecma-114 iso-ir-127 iso_8859-6:1987 iso8859-6 cp1089
iso8859-7: iso-8859-7 greek 8859_7 greek8 ibm813 iso_8859-7 iso8859_7 elot_928 cp813
iso8859-7: iso_8859-7:1987 sun_eu_greek csisolatingreek iso-ir-126 813 iso8859-7 ecma-118
iso8859-7: ibm-813
iso8859-8: iso-8859-8 8859_8 iso_8859-8 iso_8859-8:1988 cp916 iso-ir-138 iso8859-8 hebrew
iso8859-8: iso8859_8 ibm-916 csisolatinhebrew 916 ibm916
iso8859-9: iso-8859-9 ibm-920 iso_8859-9 8859_9 iso_8859-9:1989 ibm920 latin5 l5 iso8859_9
iso8859-9: cp920 920 iso-ir-148 iso8859-9 csisolatin5
koi8-r: koi8-r koi8_r koi8 cskoi8r
koi8-u: koi8-u koi8_u
shift_jis: shift_jis x-sjis sjis shift-jis ms_kanji csshiftjis
tis-620: tis-620 tis620 tis620.2533
ascii: us-ascii ansi_x3.4-1968 cp367 csascii iso-ir-6 ascii iso_646.irv:1983 ansi_x3.4-1986
ascii: ascii7 default iso_646.irv:1991 iso646-us ibm367 646 us
utf-16: utf-16 utf_16 unicode utf16 unicodebig
utf-16-be: utf-16be x-utf-16be utf_16be iso-10646-ucs-2 unicodebigunmarked
utf-16-le: utf-16le unicodelittleunmarked utf_16le x-utf-16le
utf-32: utf-32 utf_32 utf32
utf-32-be: utf-32be x-utf-32be utf_32be
utf-32-le: utf-32le x-utf-32le utf_32le
utf-8: utf-8 unicode-1-1-utf-8 utf8
cp1250: windows-1250 cp1250 cp5346
cp1251: windows-1251 cp5347 ansi-1251 cp1251
cp1252: windows-1252 ibm-1252 cp1252 ibm1252 cp5348
cp1253: windows-1253 cp1253 cp5349
cp1254: windows-1254 cp1254 cp5350
cp1255: windows-1255 cp1255
cp1256: windows-1256 cp1256
cp1257: windows-1257 cp1257 cp5353
cp1258: windows-1258 cp1258
cp932: windows-31j ms932 windows-932 cswindows31j
cp1006: x-ibm1006 ibm1006 ibm-1006 1006 cp1006
cp737: x-ibm737 cp737 ibm737 737 ibm-737
cp856: x-ibm856 ibm856 856 cp856 ibm-856
cp874: x-ibm874 ibm-874 ibm874 874 cp874
cp875: x-ibm875 ibm-875 ibm875 875 cp875
cp932: x-ibm942c ibm932 x-ibm932 ibm-932 ibm942c ibm-942c 942c 932 cp942c cp932
cp949: x-ibm949 ibm-949 ibm949 949 cp949
cp950: x-ibm950 cp950 ibm950 950 ibm-950
iso8859-11: x-iso-8859-11 iso-8859-11 iso8859_11
johab: x-johab ms1361 ksc5601_1992 johab ksc5601-1992
mac-latin2: x-maccentraleurope maccentraleurope
mac-cyrillic: x-maccyrillic maccyrillic
mac-greek: x-macgreek macgreek
mac-iceland: x-maciceland maciceland
mac-roman: x-macroman macroman
mac-turkish: x-macturkish macturkish
gbk: x-mswin-936 ms936 ms_936
shift_jis_2004: x-sjis_0213 shift_jis:2004 sjis_0213 sjis:2004 shift_jis_0213:2004 sjis-0213
shift_jis_2004: sjis_0213:2004
cp949: x-windows-949 windows949 ms949 windows-949 ms_949
cp950: x-windows-950 ms950 windows-950
"""


def _build() -> dict[str, str]:
    table: dict[str, str] = {}
    for line in _TABLE.strip().splitlines():
        codec, _, names = line.partition(":")
        for name in names.split():
            table[name] = codec
    return table


JAVA_CHARSETS: dict[str, str] = _build()
"""Lower-cased Java charset name or alias → Python codec name."""
