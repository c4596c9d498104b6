"""The span triggers as schema version 1 created them, frozen for its migration step.

Version 14 (:mod:`labeler.store.migrations`) replaced the two element triggers of each dialect
with cheaper ones accepting the same rows; step 1 still creates these, as released."""

from __future__ import annotations

SQLITE: tuple[str, ...] = (
    """CREATE TRIGGER element_span_insert BEFORE INSERT ON element
WHEN NEW.status = 'ok'
BEGIN
    SELECT RAISE(ABORT, 'element text must equal page text[start:end], 0 <= start < end <= length')
    FROM document AS d
    WHERE d.id = NEW.document_id
      AND instr(CAST(d.text AS BLOB), x'00') = 0
      AND NOT (NEW.start >= 0 AND NEW."end" > NEW.start
         AND substr(d.text, NEW."end", 1) <> ''
         AND substr(d.text, NEW.start + 1, NEW."end" - NEW.start) = NEW.text);
END""",
    """CREATE TRIGGER element_span_update BEFORE UPDATE ON element
WHEN NEW.status = 'ok'
BEGIN
    SELECT RAISE(ABORT, 'element text must equal page text[start:end], 0 <= start < end <= length')
    FROM document AS d
    WHERE d.id = NEW.document_id
      AND instr(CAST(d.text AS BLOB), x'00') = 0
      AND NOT (NEW.start >= 0 AND NEW."end" > NEW.start
         AND substr(d.text, NEW."end", 1) <> ''
         AND substr(d.text, NEW.start + 1, NEW."end" - NEW.start) = NEW.text);
END""",
    """CREATE TRIGGER document_text_update AFTER UPDATE OF text ON document
WHEN instr(CAST(NEW.text AS BLOB), x'00') = 0
BEGIN
    SELECT RAISE(ABORT, 'new page text breaks elements labelled on it; mark them stale first')
    WHERE EXISTS (
        SELECT 1 FROM element AS e
        WHERE e.document_id = NEW.id AND e.status = 'ok'
          AND NOT (substr(NEW.text, e."end", 1) <> ''
                   AND substr(NEW.text, e.start + 1, e."end" - e.start) = e.text)
    );
END""",
)

POSTGRESQL: tuple[str, ...] = (
    """CREATE FUNCTION element_span_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    page TEXT;
BEGIN
    SELECT d.text INTO page FROM document AS d WHERE d.id = NEW.document_id;
    IF NOT FOUND THEN
        RETURN NEW;
    END IF;
    IF NEW.start >= 0 AND NEW."end" > NEW.start AND NEW."end" <= char_length(page) THEN
        IF substr(page, NEW.start + 1, NEW."end" - NEW.start) = NEW.text THEN
            RETURN NEW;
        END IF;
    END IF;
    RAISE EXCEPTION 'element text must equal page text[start:end], 0 <= start < end <= length'
        USING ERRCODE = 'integrity_constraint_violation';
END
$$""",
    """CREATE TRIGGER element_span_insert BEFORE INSERT ON element
FOR EACH ROW WHEN (NEW.status = 'ok') EXECUTE FUNCTION element_span_check()""",
    """CREATE TRIGGER element_span_update BEFORE UPDATE ON element
FOR EACH ROW WHEN (NEW.status = 'ok') EXECUTE FUNCTION element_span_check()""",
    """CREATE FUNCTION document_text_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM element AS e
        WHERE e.document_id = NEW.id AND e.status = 'ok'
          AND NOT (CASE WHEN e.start >= 0 AND e."end" > e.start
                             AND e."end" <= char_length(NEW.text)
                        THEN substr(NEW.text, e.start + 1, e."end" - e.start) = e.text
                        ELSE false END)
    ) THEN
        RAISE EXCEPTION 'new page text breaks elements labelled on it; mark them stale first'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NULL;
END
$$""",
    """CREATE TRIGGER document_text_update AFTER UPDATE OF text ON document
FOR EACH ROW EXECUTE FUNCTION document_text_check()""",
)
