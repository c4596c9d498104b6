PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_version (
	version INTEGER NOT NULL, 
	description VARCHAR NOT NULL, 
	applied_at DATETIME NOT NULL, 
	PRIMARY KEY (version)
);
INSERT INTO schema_version VALUES(1,'initial schema','2026-12-05 14:53:20.371523');
INSERT INTO schema_version VALUES(2,'lookup indexes','2026-12-05 14:53:20.372846');
INSERT INTO schema_version VALUES(3,'element assisted flag, audit undo/redo','2026-12-05 14:53:20.373038');
INSERT INTO schema_version VALUES(4,'chunk placements of imported runs','2026-12-05 14:53:20.373183');
INSERT INTO schema_version VALUES(5,'one element per question, page and span','2026-12-05 14:53:20.373308');
INSERT INTO schema_version VALUES(6,'page block starts','2026-12-05 14:53:20.373425');
INSERT INTO schema_version VALUES(7,'team gold sets: assignments, done marks, annotator layers, adjudication','2026-12-05 14:53:20.373526');
INSERT INTO schema_version VALUES(8,'element key spans','2026-12-05 14:53:20.373629');
INSERT INTO schema_version VALUES(9,'annotators and their link tokens','2026-12-05 14:53:20.373742');
INSERT INTO schema_version VALUES(10,'annotator roles, the actor''s role in the audit log','2026-12-05 14:53:20.373950');
INSERT INTO schema_version VALUES(11,'full-text index of page text','2026-12-05 14:53:20.374056');
INSERT INTO schema_version VALUES(12,'chunk offsets of run results','2026-12-05 14:53:20.374152');
INSERT INTO schema_version VALUES(13,'not-relevant judgements of page regions','2026-12-05 14:53:20.374249');
CREATE TABLE document (
	id VARCHAR NOT NULL, 
	source_path VARCHAR NOT NULL, 
	sha256 VARCHAR NOT NULL, 
	profile VARCHAR NOT NULL, 
	text TEXT NOT NULL, 
	ingested_at DATETIME NOT NULL, 
	blocks TEXT, 
	PRIMARY KEY (id)
);
INSERT INTO document VALUES('alpha.txt','/tmp/labeler-schema-fixture/pages/alpha.txt','8a4f3220cc289852d8adc75326b314d6cd7ea27f451e0d6908c327a2d4f91152','text','Backups run nightly at 02:00. Restores need a ticket. The data owner approves exceptions.','2026-12-05 14:53:20.405269','0');
INSERT INTO document VALUES('beta.html','/tmp/labeler-schema-fixture/pages/beta.html','237686b43c0d7828d086b3783efaad4388a647993e1b752e16e91c1fe3f2b3e0','jsoup-1.15.3','Passwords rotate every 90 days. Admins reset locked accounts.','2026-12-05 14:53:20.467474','0,32');
PRAGMA writable_schema=ON;
INSERT INTO sqlite_schema(type,name,tbl_name,rootpage,sql)VALUES('table','document_fts','document_fts',0,'CREATE VIRTUAL TABLE document_fts USING fts5(id, text, content=''document'', content_rowid=''rowid'', tokenize=''unicode61'')');
CREATE TABLE IF NOT EXISTS 'document_fts_data'(id INTEGER PRIMARY KEY, block BLOB);
INSERT INTO document_fts_data VALUES(1,X'020418');
INSERT INTO document_fts_data VALUES(10,X'000000000102020002010101020101');
INSERT INTO document_fts_data VALUES(137438953473,X'000000bf0330303001060101070201320106010106010161010601010a02046c70686101020202077070726f766573010601010f020174010601010501076261636b7570730106010102010464617461010601010d010a657863657074696f6e73010601011001046e65656401060101090206696768746c79010601010401056f776e6572010601010e0108726573746f72657301060101080202756e01060101030103746865010601010c020569636b6574010601010b0202787401020304090808090e080e0b110b0d0c0f090a0c');
INSERT INTO document_fts_data VALUES(274877906945,X'0000008603303930020601010501086163636f756e7473020601010a0205646d696e7302060101070104626574610202020104646179730206010106010565766572790206010104010468746d6c02020301066c6f636b65640206010109010970617373776f726473020601010201057265736574020601010802056f74617465020601010304090f0c090b0c090d100c');
CREATE TABLE IF NOT EXISTS 'document_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;
INSERT INTO document_fts_idx VALUES(1,X'',2);
INSERT INTO document_fts_idx VALUES(2,X'',2);
CREATE TABLE IF NOT EXISTS 'document_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB);
INSERT INTO document_fts_docsize VALUES(1,X'020f');
INSERT INTO document_fts_docsize VALUES(2,X'0209');
CREATE TABLE IF NOT EXISTS 'document_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID;
INSERT INTO document_fts_config VALUES('version',4);
CREATE TABLE gold_set (
	id INTEGER NOT NULL, 
	name VARCHAR NOT NULL, 
	description TEXT NOT NULL, 
	created_at DATETIME NOT NULL, 
	team BOOLEAN DEFAULT 0 NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (name)
);
INSERT INTO gold_set VALUES(1,'demo','','2026-12-05 14:53:20.576500',0);
INSERT INTO gold_set VALUES(2,'team','two annotators','2026-12-05 14:53:20.753109',1);
CREATE TABLE run (
	id INTEGER NOT NULL, 
	name VARCHAR NOT NULL, 
	imported_at DATETIME NOT NULL, 
	source_file VARCHAR NOT NULL, 
	parameters JSON NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (name)
);
INSERT INTO run VALUES(1,'bm25','2026-12-05 14:53:20.659834','run.jsonl','{"k1": "0.9"}');
CREATE TABLE audit_entry (
	id INTEGER NOT NULL, 
	actor VARCHAR NOT NULL, 
	at DATETIME NOT NULL, 
	action VARCHAR NOT NULL, 
	entity VARCHAR NOT NULL, 
	entity_id INTEGER NOT NULL, 
	"before" JSON, 
	"after" JSON, 
	kind VARCHAR DEFAULT 'do' NOT NULL, 
	reverts INTEGER, 
	actor_role VARCHAR, 
	PRIMARY KEY (id), 
	CONSTRAINT ck_audit_action CHECK (action IN ('add', 'change', 'remove')), 
	CONSTRAINT ck_audit_actor_role CHECK (actor_role IS NULL OR actor_role IN ('annotator', 'lead', 'owner'))
);
INSERT INTO audit_entry VALUES(1,'ana','2026-12-05 14:53:20.577544','add','query',1,'null','{"id": 1, "gold_set_id": 1, "external_id": "q1", "text": "When do backups run?", "notes": "nightly only", "created_at": "2026-12-05T14:53:20.577544+00:00", "_origin": "cli"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(2,'ana','2026-12-05 14:53:20.577544','add','query',2,'null','{"id": 2, "gold_set_id": 1, "external_id": "q2", "text": "Who approves exceptions?", "notes": "", "created_at": "2026-12-05T14:53:20.577544+00:00", "_origin": "cli"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(3,'ana','2026-12-05 14:53:20.577544','add','element',1,'null','{"id": 1, "query_id": 1, "document_id": "alpha.txt", "start": 0, "end": 29, "text": "Backups run nightly at 02:00.", "grade": 2, "annotator": "ana", "created_at": "2026-12-05T14:53:20.577544+00:00", "status": "ok", "key_start": null, "key_end": null, "provenance": "single", "assisted": false, "_origin": "cli"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(4,'ana','2026-12-05 14:53:20.577544','add','element',2,'null','{"id": 2, "query_id": 2, "document_id": "alpha.txt", "start": 54, "end": 89, "text": "The data owner approves exceptions.", "grade": 1, "annotator": "ana", "created_at": "2026-12-05T14:53:20.577544+00:00", "status": "ok", "key_start": null, "key_end": null, "provenance": "single", "assisted": false, "_origin": "cli"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(5,'ana','2026-12-05 14:53:20.577544','add','element',3,'null','{"id": 3, "query_id": 2, "document_id": "beta.html", "start": 32, "end": 61, "text": "Admins reset locked accounts.", "grade": 1, "annotator": "ana", "created_at": "2026-12-05T14:53:20.577544+00:00", "status": "ok", "key_start": null, "key_end": null, "provenance": "single", "assisted": false, "_origin": "cli"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(6,'bob','2026-12-05 14:53:20.712831','add','element',4,'null','{"query_id": 1, "document_id": "alpha.txt", "start": 30, "end": 53, "text": "Restores need a ticket.", "grade": 1, "annotator": "bob", "assisted": false, "layer": "final", "provenance": "single", "key_start": null, "key_end": null, "id": 4, "created_at": "2026-12-05T14:53:20.708052Z", "status": "ok"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(7,'bob','2026-12-05 14:53:20.715615','add','element',5,'null','{"query_id": 2, "document_id": "beta.html", "start": 0, "end": 31, "text": "Passwords rotate every 90 days.", "grade": 1, "annotator": "bob", "assisted": false, "layer": "final", "provenance": "single", "key_start": null, "key_end": null, "id": 5, "created_at": "2026-12-05T14:53:20.714963Z", "status": "ok"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(8,'bob','2026-12-05 14:53:20.728960','remove','element',5,'{"id": 5, "query_id": 2, "start": 0, "text": "Passwords rotate every 90 days.", "annotator": "bob", "status": "ok", "layer": "final", "key_start": null, "end": 31, "document_id": "beta.html", "grade": 1, "created_at": "2026-12-05T14:53:20.714963Z", "assisted": false, "provenance": "single", "key_end": null}','null','do',NULL,'owner');
INSERT INTO audit_entry VALUES(9,'bob','2026-12-05 14:53:20.743412','add','element',5,'null','{"id": 5, "query_id": 2, "start": 0, "text": "Passwords rotate every 90 days.", "annotator": "bob", "status": "ok", "layer": "final", "key_start": null, "end": 31, "document_id": "beta.html", "grade": 1, "created_at": "2026-12-05T14:53:20.714963Z", "assisted": false, "provenance": "single", "key_end": null}','undo',8,'owner');
INSERT INTO audit_entry VALUES(10,'lead','2026-12-05 14:53:20.762964','add','query',3,'null','{"gold_set_id": 2, "external_id": "t1", "text": "How often do passwords rotate?", "notes": "", "id": 3, "created_at": "2026-12-05T14:53:20.757252Z", "adjudicated_at": null, "adjudicated_by": null}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(11,'lead','2026-12-05 14:53:20.763918','add','query',4,'null','{"gold_set_id": 2, "external_id": "t2", "text": "Who resets accounts?", "notes": "", "id": 4, "created_at": "2026-12-05T14:53:20.763621Z", "adjudicated_at": null, "adjudicated_by": null}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(12,'lead','2026-12-05 14:53:20.778104','add','assignment',1,'null','{"query_id": 3, "annotator": "ana", "id": 1, "assigned_at": "2026-12-05T14:53:20.765777Z"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(13,'ana','2026-12-05 14:53:20.794208','add','element',6,'null','{"query_id": 3, "document_id": "beta.html", "start": 0, "end": 31, "text": "Passwords rotate every 90 days.", "grade": 1, "annotator": "ana", "assisted": false, "layer": "annotator", "provenance": "own", "key_start": null, "key_end": null, "id": 6, "created_at": "2026-12-05T14:53:20.786575Z", "status": "ok"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(14,'ana','2026-12-05 14:53:20.797646','add','question_done',1,'null','{"query_id": 3, "annotator": "ana", "no_answer": false, "id": 1, "done_at": "2026-12-05T14:53:20.796822Z"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(15,'lead','2026-12-05 14:53:20.807184','add','assignment',2,'null','{"query_id": 3, "annotator": "bob", "id": 2, "assigned_at": "2026-12-05T14:53:20.806836Z"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(16,'bob','2026-12-05 14:53:20.809001','add','element',7,'null','{"query_id": 3, "document_id": "beta.html", "start": 0, "end": 31, "text": "Passwords rotate every 90 days.", "grade": 1, "annotator": "bob", "assisted": false, "layer": "annotator", "provenance": "own", "key_start": null, "key_end": null, "id": 7, "created_at": "2026-12-05T14:53:20.808197Z", "status": "ok"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(17,'bob','2026-12-05 14:53:20.814672','add','question_done',2,'null','{"query_id": 3, "annotator": "bob", "no_answer": false, "id": 2, "done_at": "2026-12-05T14:53:20.814311Z"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(18,'lead','2026-12-05 14:53:20.815522','add','assignment',3,'null','{"query_id": 4, "annotator": "ana", "id": 3, "assigned_at": "2026-12-05T14:53:20.815275Z"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(19,'ana','2026-12-05 14:53:20.816865','add','element',8,'null','{"query_id": 4, "document_id": "beta.html", "start": 32, "end": 61, "text": "Admins reset locked accounts.", "grade": 1, "annotator": "ana", "assisted": false, "layer": "annotator", "provenance": "own", "key_start": null, "key_end": null, "id": 8, "created_at": "2026-12-05T14:53:20.816332Z", "status": "ok"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(20,'lead','2026-12-05 14:53:20.819582','add','element',9,'null','{"query_id": 3, "document_id": "beta.html", "start": 0, "end": 31, "text": "Passwords rotate every 90 days.", "grade": 1, "annotator": "lead", "assisted": false, "layer": "final", "provenance": "unanimous", "key_start": null, "key_end": null, "id": 9, "created_at": "2026-12-05T14:53:20.817644Z", "status": "ok"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(21,'lead','2026-12-05 14:53:20.836440','change','element',9,'{"id": 9, "query_id": 3, "start": 0, "text": "Passwords rotate every 90 days.", "annotator": "lead", "status": "ok", "layer": "final", "key_start": null, "end": 31, "document_id": "beta.html", "grade": 1, "created_at": "2026-12-05T14:53:20.817644Z", "assisted": false, "provenance": "unanimous", "key_end": null}','{"id": 9, "query_id": 3, "start": 0, "text": "Passwords rotate every 90 days.", "annotator": "lead", "status": "ok", "layer": "final", "key_start": 10, "end": 31, "document_id": "beta.html", "grade": 1, "created_at": "2026-12-05T14:53:20.817644Z", "assisted": false, "provenance": "unanimous", "key_end": 30}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(22,'ana','2026-12-05 14:53:20.837736','change','element',8,'{"id": 8, "query_id": 4, "start": 32, "text": "Admins reset locked accounts.", "annotator": "ana", "status": "ok", "layer": "annotator", "key_start": null, "end": 61, "document_id": "beta.html", "grade": 1, "created_at": "2026-12-05T14:53:20.816332Z", "assisted": false, "provenance": "own", "key_end": null}','{"id": 8, "query_id": 4, "start": 32, "text": "Admins reset locked accounts.", "annotator": "ana", "status": "ok", "layer": "annotator", "key_start": 39, "end": 61, "document_id": "beta.html", "grade": 1, "created_at": "2026-12-05T14:53:20.816332Z", "assisted": false, "provenance": "own", "key_end": 60}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(23,'lead','2026-12-05 14:53:20.851867','change','query',3,'{"notes": "", "gold_set_id": 2, "external_id": "t1", "adjudicated_at": null, "id": 3, "text": "How often do passwords rotate?", "created_at": "2026-12-05T14:53:20.757252Z", "adjudicated_by": null}','{"notes": "", "gold_set_id": 2, "external_id": "t1", "adjudicated_at": "2026-12-05T14:53:20.850592Z", "id": 3, "text": "How often do passwords rotate?", "created_at": "2026-12-05T14:53:20.757252Z", "adjudicated_by": "lead"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(24,'lead','2026-12-05 14:53:20.870428','add','annotator',1,'null','{"id": 1, "name": "ana", "role": "annotator"}','do',NULL,'owner');
INSERT INTO audit_entry VALUES(25,'lead','2026-12-05 14:53:20.871701','add','annotator',2,'null','{"id": 2, "name": "bob", "role": "annotator"}','do',NULL,'owner');
CREATE TABLE annotator (
	id INTEGER NOT NULL, 
	name VARCHAR NOT NULL, 
	token_hash VARCHAR NOT NULL, 
	created_at DATETIME NOT NULL, 
	revoked_at DATETIME, 
	role VARCHAR DEFAULT 'annotator' NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT ck_annotator_role CHECK (role IN ('annotator', 'lead')), 
	UNIQUE (name), 
	UNIQUE (token_hash)
);
INSERT INTO annotator VALUES(1,'ana','38f680a4e84c59605f8c33370ffa6dc8d2e39e60877ad009e0d2abab6625e1e0','2026-12-05 14:53:20.860932',NULL,'annotator');
INSERT INTO annotator VALUES(2,'bob','0d5a2a118fcd369d6b9289d832de2daff3b7218c0d6b9bab22ceb6d694e02f40','2026-12-05 14:53:20.871423','2026-12-05 14:53:20.873032','annotator');
CREATE TABLE IF NOT EXISTS "query" (
	id INTEGER NOT NULL, 
	gold_set_id INTEGER NOT NULL, 
	external_id VARCHAR NOT NULL, 
	text TEXT NOT NULL, 
	notes TEXT NOT NULL, 
	created_at DATETIME NOT NULL, 
	adjudicated_at DATETIME, 
	adjudicated_by VARCHAR, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_query_gold_set_external_id UNIQUE (gold_set_id, external_id), 
	FOREIGN KEY(gold_set_id) REFERENCES gold_set (id) ON DELETE CASCADE
);
INSERT INTO "query" VALUES(1,1,'q1','When do backups run?','nightly only','2026-12-05 14:53:20.577544',NULL,NULL);
INSERT INTO "query" VALUES(2,1,'q2','Who approves exceptions?','','2026-12-05 14:53:20.577544',NULL,NULL);
INSERT INTO "query" VALUES(3,2,'t1','How often do passwords rotate?','','2026-12-05 14:53:20.757252','2026-12-05 14:53:20.850592','lead');
INSERT INTO "query" VALUES(4,2,'t2','Who resets accounts?','','2026-12-05 14:53:20.763621',NULL,NULL);
CREATE TABLE run_result (
	id INTEGER NOT NULL, 
	run_id INTEGER NOT NULL, 
	query_external_id VARCHAR NOT NULL, 
	rank INTEGER NOT NULL, 
	chunk_text TEXT NOT NULL, 
	doc_id VARCHAR, 
	score FLOAT, 
	located INTEGER DEFAULT 0 NOT NULL, 
	chunk_start INTEGER, 
	chunk_end INTEGER, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_run_result_rank UNIQUE (run_id, query_external_id, rank), 
	CONSTRAINT ck_run_result_rank CHECK (rank >= 1), 
	CONSTRAINT ck_run_result_offsets CHECK ((chunk_start IS NULL AND chunk_end IS NULL) OR (chunk_start IS NOT NULL AND chunk_end IS NOT NULL AND chunk_start >= 0 AND chunk_start <= chunk_end)), 
	FOREIGN KEY(run_id) REFERENCES run (id) ON DELETE CASCADE
);
INSERT INTO run_result VALUES(1,1,'q1',1,'Backups run nightly at 02:00.','alpha.txt',3.5,1,NULL,NULL);
INSERT INTO run_result VALUES(2,1,'q1',2,'Restores need a ticket.','alpha.txt',1.25,1,NULL,NULL);
INSERT INTO run_result VALUES(3,1,'q2',1,'Admins reset locked accounts.','beta.html',2.0,0,NULL,NULL);
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
	status VARCHAR DEFAULT 'ok' NOT NULL, 
	assisted BOOLEAN DEFAULT 0 NOT NULL, 
	layer VARCHAR DEFAULT 'final' NOT NULL, 
	provenance VARCHAR DEFAULT 'single' NOT NULL, 
	key_start INTEGER, 
	key_end INTEGER, 
	PRIMARY KEY (id), 
	CONSTRAINT ck_element_grade CHECK (grade >= 1), 
	CONSTRAINT ck_element_span CHECK (start >= 0 AND "end" > start), 
	CONSTRAINT ck_element_status CHECK (status IN ('ok', 'stale')), 
	CONSTRAINT ck_element_key CHECK ((key_start IS NULL AND key_end IS NULL) OR (key_start IS NOT NULL AND key_end IS NOT NULL AND key_start >= start AND key_start < key_end AND key_end <= "end")), 
	FOREIGN KEY(query_id) REFERENCES "query" (id) ON DELETE CASCADE, 
	FOREIGN KEY(document_id) REFERENCES document (id) ON DELETE RESTRICT
);
INSERT INTO element VALUES(1,1,'alpha.txt',0,29,'Backups run nightly at 02:00.',2,'ana','2026-12-05 14:53:20.577544','ok',0,'final','single',NULL,NULL);
INSERT INTO element VALUES(2,2,'alpha.txt',54,89,'The data owner approves exceptions.',1,'ana','2026-12-05 14:53:20.577544','ok',0,'final','single',NULL,NULL);
INSERT INTO element VALUES(3,2,'beta.html',32,61,'Admins reset locked accounts.',1,'ana','2026-12-05 14:53:20.577544','ok',0,'final','single',NULL,NULL);
INSERT INTO element VALUES(4,1,'alpha.txt',30,53,'Restores need a ticket.',1,'bob','2026-12-05 14:53:20.708052','ok',0,'final','single',NULL,NULL);
INSERT INTO element VALUES(5,2,'beta.html',0,31,'Passwords rotate every 90 days.',1,'bob','2026-12-05 14:53:20.714963','ok',0,'final','single',NULL,NULL);
INSERT INTO element VALUES(6,3,'beta.html',0,31,'Passwords rotate every 90 days.',1,'ana','2026-12-05 14:53:20.786575','ok',0,'annotator','own',NULL,NULL);
INSERT INTO element VALUES(7,3,'beta.html',0,31,'Passwords rotate every 90 days.',1,'bob','2026-12-05 14:53:20.808197','ok',0,'annotator','own',NULL,NULL);
INSERT INTO element VALUES(8,4,'beta.html',32,61,'Admins reset locked accounts.',1,'ana','2026-12-05 14:53:20.816332','ok',0,'annotator','own',39,60);
INSERT INTO element VALUES(9,3,'beta.html',0,31,'Passwords rotate every 90 days.',1,'lead','2026-12-05 14:53:20.817644','ok',0,'final','unanimous',10,30);
CREATE TABLE not_relevant (
	id INTEGER NOT NULL, 
	query_id INTEGER NOT NULL, 
	document_id VARCHAR NOT NULL, 
	start INTEGER NOT NULL, 
	"end" INTEGER NOT NULL, 
	annotator VARCHAR NOT NULL, 
	layer VARCHAR NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT ck_not_relevant_span CHECK (start >= 0 AND "end" > start), 
	CONSTRAINT uq_not_relevant_span UNIQUE (query_id, document_id, start, "end", layer, annotator), 
	FOREIGN KEY(query_id) REFERENCES "query" (id) ON DELETE CASCADE, 
	FOREIGN KEY(document_id) REFERENCES document (id) ON DELETE RESTRICT
);
CREATE TABLE assignment (
	id INTEGER NOT NULL, 
	query_id INTEGER NOT NULL, 
	annotator VARCHAR NOT NULL, 
	assigned_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_assignment_query_annotator UNIQUE (query_id, annotator), 
	FOREIGN KEY(query_id) REFERENCES "query" (id) ON DELETE CASCADE
);
INSERT INTO assignment VALUES(1,3,'ana','2026-12-05 14:53:20.765777');
INSERT INTO assignment VALUES(2,3,'bob','2026-12-05 14:53:20.806836');
INSERT INTO assignment VALUES(3,4,'ana','2026-12-05 14:53:20.815275');
CREATE TABLE question_done (
	id INTEGER NOT NULL, 
	query_id INTEGER NOT NULL, 
	annotator VARCHAR NOT NULL, 
	done_at DATETIME NOT NULL, 
	no_answer BOOLEAN NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_question_done_query_annotator UNIQUE (query_id, annotator), 
	FOREIGN KEY(query_id) REFERENCES "query" (id) ON DELETE CASCADE
);
INSERT INTO question_done VALUES(1,3,'ana','2026-12-05 14:53:20.796822',0);
INSERT INTO question_done VALUES(2,3,'bob','2026-12-05 14:53:20.814311',0);
CREATE TRIGGER document_fts_insert AFTER INSERT ON document
BEGIN
    INSERT INTO document_fts(rowid, id, text) VALUES (NEW.rowid, NEW.id, NEW.text);
END;
CREATE TRIGGER document_fts_delete AFTER DELETE ON document
BEGIN
    INSERT INTO document_fts(document_fts, rowid, id, text)
    VALUES ('delete', OLD.rowid, OLD.id, OLD.text);
END;
CREATE TRIGGER document_fts_update AFTER UPDATE OF id, text ON document
BEGIN
    INSERT INTO document_fts(document_fts, rowid, id, text)
    VALUES ('delete', OLD.rowid, OLD.id, OLD.text);
    INSERT INTO document_fts(rowid, id, text) VALUES (NEW.rowid, NEW.id, NEW.text);
END;
CREATE INDEX ix_audit_entity ON audit_entry (entity, entity_id);
CREATE INDEX ix_element_query ON element (query_id);
CREATE UNIQUE INDEX uq_element_final_span ON element (query_id, document_id, start, "end") WHERE layer = 'final';
CREATE INDEX ix_element_document_status ON element (document_id, status);
CREATE UNIQUE INDEX uq_element_layer_span ON element (query_id, document_id, start, "end", annotator) WHERE layer = 'annotator';
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
CREATE INDEX ix_not_relevant_query ON not_relevant (query_id);
PRAGMA writable_schema=OFF;
COMMIT;
