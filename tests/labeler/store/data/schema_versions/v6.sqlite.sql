PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_version (
    version INTEGER NOT NULL,
    description VARCHAR NOT NULL,
    applied_at DATETIME NOT NULL,
    PRIMARY KEY (version)
);
INSERT INTO schema_version VALUES(1,'initial schema','2026-12-01 20:47:20.653634');
INSERT INTO schema_version VALUES(2,'lookup indexes','2026-12-01 20:47:20.655126');
INSERT INTO schema_version VALUES(3,'element assisted flag, audit undo/redo','2026-12-01 20:47:20.656022');
INSERT INTO schema_version VALUES(4,'chunk placements of imported runs','2026-12-01 20:47:20.676627');
INSERT INTO schema_version VALUES(5,'one element per question, page and span','2026-12-01 20:47:20.677882');
INSERT INTO schema_version VALUES(6,'page block starts','2026-12-01 20:47:20.678477');
CREATE TABLE document (
    id VARCHAR NOT NULL,
    source_path VARCHAR NOT NULL,
    sha256 VARCHAR NOT NULL,
    profile VARCHAR NOT NULL,
    text TEXT NOT NULL,
    ingested_at DATETIME NOT NULL, blocks TEXT,
    PRIMARY KEY (id)
);
INSERT INTO document VALUES('alpha.txt','/tmp/labeler-schema-fixture/pages/alpha.txt','8a4f3220cc289852d8adc75326b314d6cd7ea27f451e0d6908c327a2d4f91152','text','Backups run nightly at 02:00. Restores need a ticket. The data owner approves exceptions.','2026-12-01 20:47:20.723155','0');
INSERT INTO document VALUES('beta.html','/tmp/labeler-schema-fixture/pages/beta.html','237686b43c0d7828d086b3783efaad4388a647993e1b752e16e91c1fe3f2b3e0','jsoup-1.15.3','Passwords rotate every 90 days. Admins reset locked accounts.','2026-12-01 20:47:20.870271','0,32');
CREATE TABLE gold_set (
    id INTEGER NOT NULL,
    name VARCHAR NOT NULL,
    description TEXT NOT NULL,
    created_at DATETIME NOT NULL,
    PRIMARY KEY (id),
    UNIQUE (name)
);
INSERT INTO gold_set VALUES(1,'demo','','2026-12-01 20:47:20.942018');
CREATE TABLE IF NOT EXISTS "query" (
    id INTEGER NOT NULL,
    gold_set_id INTEGER NOT NULL,
    external_id VARCHAR NOT NULL,
    text TEXT NOT NULL,
    notes TEXT NOT NULL,
    created_at DATETIME NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT uq_query_gold_set_external_id UNIQUE (gold_set_id, external_id),
    FOREIGN KEY(gold_set_id) REFERENCES gold_set (id) ON DELETE CASCADE
);
INSERT INTO "query" VALUES(1,1,'q1','When do backups run?','nightly only','2026-12-01 20:47:20.943221');
INSERT INTO "query" VALUES(2,1,'q2','Who approves exceptions?','','2026-12-01 20:47:20.943221');
CREATE TABLE element (
    id INTEGER NOT NULL,
    query_id INTEGER NOT NULL,
    document_id VARCHAR NOT NULL,
    start INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    text TEXT NOT NULL,
    grade INTEGER DEFAULT 1 NOT NULL,
    annotator VARCHAR NOT NULL,
    created_at DATETIME NOT NULL,
    status VARCHAR DEFAULT 'ok' NOT NULL, assisted BOOLEAN DEFAULT 0 NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT ck_element_grade CHECK (grade >= 1),
    CONSTRAINT ck_element_span CHECK (start >= 0 AND "end" > start),
    CONSTRAINT ck_element_status CHECK (status IN ('ok', 'stale')),
    FOREIGN KEY(query_id) REFERENCES "query" (id) ON DELETE CASCADE,
    FOREIGN KEY(document_id) REFERENCES document (id) ON DELETE RESTRICT
);
INSERT INTO element VALUES(1,1,'alpha.txt',0,29,'Backups run nightly at 02:00.',2,'ana','2026-12-01 20:47:20.943221','ok',0);
INSERT INTO element VALUES(2,2,'alpha.txt',54,89,'The data owner approves exceptions.',1,'ana','2026-12-01 20:47:20.943221','ok',0);
INSERT INTO element VALUES(3,2,'beta.html',32,61,'Admins reset locked accounts.',1,'ana','2026-12-01 20:47:20.943221','ok',0);
INSERT INTO element VALUES(4,1,'alpha.txt',30,53,'Restores need a ticket.',1,'bob','2026-12-01 20:47:21.059279','ok',0);
INSERT INTO element VALUES(5,2,'beta.html',0,31,'Passwords rotate every 90 days.',1,'bob','2026-12-01 20:47:21.069564','ok',0);
CREATE TABLE run (
    id INTEGER NOT NULL,
    name VARCHAR NOT NULL,
    imported_at DATETIME NOT NULL,
    source_file VARCHAR NOT NULL,
    parameters JSON NOT NULL,
    PRIMARY KEY (id),
    UNIQUE (name)
);
INSERT INTO run VALUES(1,'bm25','2026-12-01 20:47:21.022543','run.jsonl','{"k1": "0.9"}');
CREATE TABLE run_result (
    id INTEGER NOT NULL,
    run_id INTEGER NOT NULL,
    query_external_id VARCHAR NOT NULL,
    rank INTEGER NOT NULL,
    chunk_text TEXT NOT NULL,
    doc_id VARCHAR,
    score FLOAT, located INTEGER DEFAULT 0 NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT uq_run_result_rank UNIQUE (run_id, query_external_id, rank),
    CONSTRAINT ck_run_result_rank CHECK (rank >= 1),
    FOREIGN KEY(run_id) REFERENCES run (id) ON DELETE CASCADE
);
INSERT INTO run_result VALUES(1,1,'q1',1,'Backups run nightly at 02:00.','alpha.txt',3.5,1);
INSERT INTO run_result VALUES(2,1,'q1',2,'Restores need a ticket.','alpha.txt',1.25,1);
INSERT INTO run_result VALUES(3,1,'q2',1,'Admins reset locked accounts.','beta.html',2.0,0);
CREATE TABLE audit_entry (
    id INTEGER NOT NULL,
    actor VARCHAR NOT NULL,
    at DATETIME NOT NULL,
    action VARCHAR NOT NULL,
    entity VARCHAR NOT NULL,
    entity_id INTEGER NOT NULL,
    "before" JSON,
    "after" JSON, kind VARCHAR DEFAULT 'do' NOT NULL, reverts INTEGER,
    PRIMARY KEY (id),
    CONSTRAINT ck_audit_action CHECK (action IN ('add', 'change', 'remove'))
);
INSERT INTO audit_entry VALUES(1,'ana','2026-12-01 20:47:20.943221','add','query',1,'null','{"id": 1, "gold_set_id": 1, "external_id": "q1", "text": "When do backups run?", "notes": "nightly only", "created_at": "2026-12-01T20:47:20.943221+00:00"}','do',NULL);
INSERT INTO audit_entry VALUES(2,'ana','2026-12-01 20:47:20.943221','add','query',2,'null','{"id": 2, "gold_set_id": 1, "external_id": "q2", "text": "Who approves exceptions?", "notes": "", "created_at": "2026-12-01T20:47:20.943221+00:00"}','do',NULL);
INSERT INTO audit_entry VALUES(3,'ana','2026-12-01 20:47:20.943221','add','element',1,'null','{"id": 1, "query_id": 1, "document_id": "alpha.txt", "start": 0, "end": 29, "text": "Backups run nightly at 02:00.", "grade": 2, "annotator": "ana", "created_at": "2026-12-01T20:47:20.943221+00:00", "status": "ok"}','do',NULL);
INSERT INTO audit_entry VALUES(4,'ana','2026-12-01 20:47:20.943221','add','element',2,'null','{"id": 2, "query_id": 2, "document_id": "alpha.txt", "start": 54, "end": 89, "text": "The data owner approves exceptions.", "grade": 1, "annotator": "ana", "created_at": "2026-12-01T20:47:20.943221+00:00", "status": "ok"}','do',NULL);
INSERT INTO audit_entry VALUES(5,'ana','2026-12-01 20:47:20.943221','add','element',3,'null','{"id": 3, "query_id": 2, "document_id": "beta.html", "start": 32, "end": 61, "text": "Admins reset locked accounts.", "grade": 1, "annotator": "ana", "created_at": "2026-12-01T20:47:20.943221+00:00", "status": "ok"}','do',NULL);
INSERT INTO audit_entry VALUES(6,'bob','2026-12-01 20:47:21.062427','add','element',4,'null','{"query_id": 1, "document_id": "alpha.txt", "start": 30, "end": 53, "text": "Restores need a ticket.", "grade": 1, "annotator": "bob", "assisted": false, "id": 4, "created_at": "2026-12-01T20:47:21.059279Z", "status": "ok"}','do',NULL);
INSERT INTO audit_entry VALUES(7,'bob','2026-12-01 20:47:21.071149','add','element',5,'null','{"query_id": 2, "document_id": "beta.html", "start": 0, "end": 31, "text": "Passwords rotate every 90 days.", "grade": 1, "annotator": "bob", "assisted": false, "id": 5, "created_at": "2026-12-01T20:47:21.069564Z", "status": "ok"}','do',NULL);
INSERT INTO audit_entry VALUES(8,'bob','2026-12-01 20:47:21.083412','remove','element',5,'{"document_id": "beta.html", "end": 31, "query_id": 2, "grade": 1, "created_at": "2026-12-01T20:47:21.069564Z", "assisted": false, "start": 0, "id": 5, "text": "Passwords rotate every 90 days.", "annotator": "bob", "status": "ok"}','null','do',NULL);
INSERT INTO audit_entry VALUES(9,'bob','2026-12-01 20:47:21.113726','add','element',5,'null','{"document_id": "beta.html", "end": 31, "query_id": 2, "grade": 1, "created_at": "2026-12-01T20:47:21.069564Z", "assisted": false, "start": 0, "id": 5, "text": "Passwords rotate every 90 days.", "annotator": "bob", "status": "ok"}','undo',8);
CREATE TABLE run_placement (
    run_id INTEGER NOT NULL,
    query_external_id VARCHAR NOT NULL,
    page_sha256 VARCHAR NOT NULL,
    starts TEXT NOT NULL,
    repeated TEXT NOT NULL,
    occurrences TEXT NOT NULL,
    lengths TEXT NOT NULL,
    PRIMARY KEY (run_id, query_external_id, page_sha256),
    FOREIGN KEY(run_id) REFERENCES run (id) ON DELETE CASCADE
);
INSERT INTO run_placement VALUES(1,'q1','0ddc97dfa4af72c4c3944aafcf89e798','0,30','00','{"88dbd9d0c061a0a25577c3ac61f48c07":[0]}','29,23');
INSERT INTO run_placement VALUES(1,'q2','0ddc97dfa4af72c4c3944aafcf89e798','-1','0','{"1eb35a4b1b50ed29a3714b6ffa74dd18":[54]}','29');
INSERT INTO run_placement VALUES(1,'q2','4d4e01a33ff9ec6d870d45bd12aa5058','32','0','{"a2c39004638ed871ecb9d30ab0ca06dc":[32]}','29');
CREATE TRIGGER element_span_insert BEFORE INSERT ON element
WHEN NEW.status = 'ok'
BEGIN
    SELECT RAISE(ABORT, 'element text must equal page text[start:end], 0 <= start < end <= length')
    FROM document AS d
    WHERE d.id = NEW.document_id
      AND instr(CAST(d.text AS BLOB), x'00') = 0
      AND NOT (NEW.start >= 0 AND NEW."end" > NEW.start
         AND substr(d.text, NEW."end", 1) <> ''
         AND substr(d.text, NEW.start + 1, NEW."end" - NEW.start) = NEW.text);
END;
CREATE TRIGGER element_span_update BEFORE UPDATE ON element
WHEN NEW.status = 'ok'
BEGIN
    SELECT RAISE(ABORT, 'element text must equal page text[start:end], 0 <= start < end <= length')
    FROM document AS d
    WHERE d.id = NEW.document_id
      AND instr(CAST(d.text AS BLOB), x'00') = 0
      AND NOT (NEW.start >= 0 AND NEW."end" > NEW.start
         AND substr(d.text, NEW."end", 1) <> ''
         AND substr(d.text, NEW.start + 1, NEW."end" - NEW.start) = NEW.text);
END;
CREATE TRIGGER document_text_update AFTER UPDATE OF text ON document
WHEN instr(CAST(NEW.text AS BLOB), x'00') = 0
BEGIN
    SELECT RAISE(ABORT, 'new page text breaks elements labelled on it; mark them stale first')
    WHERE EXISTS (
        SELECT 1 FROM element AS e
        WHERE e.document_id = NEW.id AND e.status = 'ok'
          AND NOT (substr(NEW.text, e."end", 1) <> ''
                   AND substr(NEW.text, e.start + 1, e."end" - e.start) = e.text)
    );
END;
CREATE INDEX ix_element_document_status ON element (document_id, status);
CREATE INDEX ix_element_query ON element (query_id);
CREATE INDEX ix_audit_entity ON audit_entry (entity, entity_id);
CREATE UNIQUE INDEX uq_element_span ON element (query_id, document_id, start, "end");
COMMIT;
