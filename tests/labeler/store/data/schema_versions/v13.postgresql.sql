--
-- PostgreSQL database dump
--



SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: document_text_check(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.document_text_check() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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
$$;


--
-- Name: element_span_check(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.element_span_check() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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
$$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: annotator; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.annotator (
    id integer NOT NULL,
    name character varying NOT NULL,
    token_hash character varying NOT NULL,
    created_at timestamp with time zone NOT NULL,
    revoked_at timestamp with time zone,
    role character varying DEFAULT 'annotator'::character varying NOT NULL,
    CONSTRAINT ck_annotator_role CHECK (((role)::text = ANY ((ARRAY['annotator'::character varying, 'lead'::character varying])::text[])))
);


--
-- Name: annotator_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.annotator_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: annotator_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.annotator_id_seq OWNED BY public.annotator.id;


--
-- Name: assignment; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.assignment (
    id integer NOT NULL,
    query_id integer NOT NULL,
    annotator character varying NOT NULL,
    assigned_at timestamp with time zone NOT NULL
);


--
-- Name: assignment_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.assignment_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: assignment_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.assignment_id_seq OWNED BY public.assignment.id;


--
-- Name: audit_entry; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audit_entry (
    id integer NOT NULL,
    actor character varying NOT NULL,
    at timestamp with time zone NOT NULL,
    action character varying NOT NULL,
    entity character varying NOT NULL,
    entity_id integer NOT NULL,
    before json,
    after json,
    kind character varying DEFAULT 'do'::character varying NOT NULL,
    reverts integer,
    actor_role character varying,
    CONSTRAINT ck_audit_action CHECK (((action)::text = ANY ((ARRAY['add'::character varying, 'change'::character varying, 'remove'::character varying])::text[]))),
    CONSTRAINT ck_audit_actor_role CHECK (((actor_role IS NULL) OR ((actor_role)::text = ANY ((ARRAY['annotator'::character varying, 'lead'::character varying, 'owner'::character varying])::text[]))))
);


--
-- Name: audit_entry_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.audit_entry_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: audit_entry_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.audit_entry_id_seq OWNED BY public.audit_entry.id;


--
-- Name: document; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.document (
    id character varying NOT NULL,
    source_path character varying NOT NULL,
    sha256 character varying NOT NULL,
    profile character varying NOT NULL,
    text text NOT NULL,
    ingested_at timestamp with time zone NOT NULL,
    blocks text,
    search tsvector GENERATED ALWAYS AS ((setweight(to_tsvector('simple'::regconfig, translate((id)::text, '/._-:@#=+'::text, '         '::text)), 'A'::"char") || to_tsvector('simple'::regconfig, translate(text, '/._-:@#=+'::text, '         '::text)))) STORED
);


--
-- Name: element; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.element (
    id integer NOT NULL,
    query_id integer NOT NULL,
    document_id character varying NOT NULL,
    start integer NOT NULL,
    "end" integer NOT NULL,
    text text NOT NULL,
    grade integer DEFAULT 1 NOT NULL,
    annotator character varying NOT NULL,
    created_at timestamp with time zone NOT NULL,
    status character varying DEFAULT 'ok'::character varying NOT NULL,
    assisted boolean DEFAULT false NOT NULL,
    layer character varying DEFAULT 'final'::character varying NOT NULL,
    provenance character varying DEFAULT 'single'::character varying NOT NULL,
    key_start integer,
    key_end integer,
    CONSTRAINT ck_element_grade CHECK ((grade >= 1)),
    CONSTRAINT ck_element_key CHECK ((((key_start IS NULL) AND (key_end IS NULL)) OR ((key_start IS NOT NULL) AND (key_end IS NOT NULL) AND (key_start >= start) AND (key_start < key_end) AND (key_end <= "end")))),
    CONSTRAINT ck_element_span CHECK (((start >= 0) AND ("end" > start))),
    CONSTRAINT ck_element_status CHECK (((status)::text = ANY ((ARRAY['ok'::character varying, 'stale'::character varying])::text[])))
);


--
-- Name: element_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.element_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: element_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.element_id_seq OWNED BY public.element.id;


--
-- Name: gold_set; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.gold_set (
    id integer NOT NULL,
    name character varying NOT NULL,
    description text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    team boolean DEFAULT false NOT NULL
);


--
-- Name: gold_set_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.gold_set_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: gold_set_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.gold_set_id_seq OWNED BY public.gold_set.id;


--
-- Name: not_relevant; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.not_relevant (
    id integer NOT NULL,
    query_id integer NOT NULL,
    document_id character varying NOT NULL,
    start integer NOT NULL,
    "end" integer NOT NULL,
    annotator character varying NOT NULL,
    layer character varying NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT ck_not_relevant_span CHECK (((start >= 0) AND ("end" > start)))
);


--
-- Name: not_relevant_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.not_relevant_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: not_relevant_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.not_relevant_id_seq OWNED BY public.not_relevant.id;


--
-- Name: query; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.query (
    id integer NOT NULL,
    gold_set_id integer NOT NULL,
    external_id character varying NOT NULL,
    text text NOT NULL,
    notes text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    adjudicated_at timestamp with time zone,
    adjudicated_by character varying
);


--
-- Name: query_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.query_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: query_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.query_id_seq OWNED BY public.query.id;


--
-- Name: question_done; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.question_done (
    id integer NOT NULL,
    query_id integer NOT NULL,
    annotator character varying NOT NULL,
    done_at timestamp with time zone NOT NULL,
    no_answer boolean NOT NULL
);


--
-- Name: question_done_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.question_done_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: question_done_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.question_done_id_seq OWNED BY public.question_done.id;


--
-- Name: run; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.run (
    id integer NOT NULL,
    name character varying NOT NULL,
    imported_at timestamp with time zone NOT NULL,
    source_file character varying NOT NULL,
    parameters json NOT NULL
);


--
-- Name: run_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.run_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: run_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.run_id_seq OWNED BY public.run.id;


--
-- Name: run_placement; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.run_placement (
    run_id integer NOT NULL,
    query_external_id character varying NOT NULL,
    page_sha256 character varying NOT NULL,
    starts text NOT NULL,
    repeated text NOT NULL,
    occurrences text NOT NULL,
    lengths text NOT NULL
);


--
-- Name: run_result; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.run_result (
    id integer NOT NULL,
    run_id integer NOT NULL,
    query_external_id character varying NOT NULL,
    rank integer NOT NULL,
    chunk_text text NOT NULL,
    doc_id character varying,
    score double precision,
    located integer DEFAULT 0 NOT NULL,
    chunk_start integer,
    chunk_end integer,
    CONSTRAINT ck_run_result_offsets CHECK ((((chunk_start IS NULL) AND (chunk_end IS NULL)) OR ((chunk_start IS NOT NULL) AND (chunk_end IS NOT NULL) AND (chunk_start >= 0) AND (chunk_start <= chunk_end)))),
    CONSTRAINT ck_run_result_rank CHECK ((rank >= 1))
);


--
-- Name: run_result_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.run_result_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: run_result_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.run_result_id_seq OWNED BY public.run_result.id;


--
-- Name: schema_version; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_version (
    version integer NOT NULL,
    description character varying NOT NULL,
    applied_at timestamp with time zone NOT NULL
);


--
-- Name: annotator id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.annotator ALTER COLUMN id SET DEFAULT nextval('public.annotator_id_seq'::regclass);


--
-- Name: assignment id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignment ALTER COLUMN id SET DEFAULT nextval('public.assignment_id_seq'::regclass);


--
-- Name: audit_entry id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_entry ALTER COLUMN id SET DEFAULT nextval('public.audit_entry_id_seq'::regclass);


--
-- Name: element id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.element ALTER COLUMN id SET DEFAULT nextval('public.element_id_seq'::regclass);


--
-- Name: gold_set id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gold_set ALTER COLUMN id SET DEFAULT nextval('public.gold_set_id_seq'::regclass);


--
-- Name: not_relevant id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.not_relevant ALTER COLUMN id SET DEFAULT nextval('public.not_relevant_id_seq'::regclass);


--
-- Name: query id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.query ALTER COLUMN id SET DEFAULT nextval('public.query_id_seq'::regclass);


--
-- Name: question_done id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.question_done ALTER COLUMN id SET DEFAULT nextval('public.question_done_id_seq'::regclass);


--
-- Name: run id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run ALTER COLUMN id SET DEFAULT nextval('public.run_id_seq'::regclass);


--
-- Name: run_result id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run_result ALTER COLUMN id SET DEFAULT nextval('public.run_result_id_seq'::regclass);


--
-- Data for Name: annotator; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.annotator VALUES (1, 'ana', '7bd84421cab188a5437410d3c96c4a30b854f9b10b5602237db05a1b6b792006', '2026-12-05 14:53:22.774904+00', NULL, 'annotator');
INSERT INTO public.annotator VALUES (2, 'bob', '4e724a1f85113905838670f973e0958ebfe7da0f7cb1adeb8127c5ec67dcbc0b', '2026-12-05 14:53:22.778296+00', '2026-12-05 14:53:22.780456+00', 'annotator');


--
-- Data for Name: assignment; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.assignment VALUES (1, 3, 'ana', '2026-12-05 14:53:22.696512+00');
INSERT INTO public.assignment VALUES (2, 3, 'bob', '2026-12-05 14:53:22.712961+00');
INSERT INTO public.assignment VALUES (3, 4, 'ana', '2026-12-05 14:53:22.726817+00');


--
-- Data for Name: audit_entry; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.audit_entry VALUES (1, 'ana', '2026-12-05 14:53:22.477953+00', 'add', 'query', 1, 'null', '{"id": 1, "gold_set_id": 1, "external_id": "q1", "text": "When do backups run?", "notes": "nightly only", "created_at": "2026-12-05T14:53:22.477953+00:00", "_origin": "cli"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (2, 'ana', '2026-12-05 14:53:22.477953+00', 'add', 'query', 2, 'null', '{"id": 2, "gold_set_id": 1, "external_id": "q2", "text": "Who approves exceptions?", "notes": "", "created_at": "2026-12-05T14:53:22.477953+00:00", "_origin": "cli"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (3, 'ana', '2026-12-05 14:53:22.477953+00', 'add', 'element', 1, 'null', '{"id": 1, "query_id": 1, "document_id": "alpha.txt", "start": 0, "end": 29, "text": "Backups run nightly at 02:00.", "grade": 2, "annotator": "ana", "created_at": "2026-12-05T14:53:22.477953+00:00", "status": "ok", "key_start": null, "key_end": null, "provenance": "single", "assisted": false, "_origin": "cli"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (4, 'ana', '2026-12-05 14:53:22.477953+00', 'add', 'element', 2, 'null', '{"id": 2, "query_id": 2, "document_id": "alpha.txt", "start": 54, "end": 89, "text": "The data owner approves exceptions.", "grade": 1, "annotator": "ana", "created_at": "2026-12-05T14:53:22.477953+00:00", "status": "ok", "key_start": null, "key_end": null, "provenance": "single", "assisted": false, "_origin": "cli"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (5, 'ana', '2026-12-05 14:53:22.477953+00', 'add', 'element', 3, 'null', '{"id": 3, "query_id": 2, "document_id": "beta.html", "start": 32, "end": 61, "text": "Admins reset locked accounts.", "grade": 1, "annotator": "ana", "created_at": "2026-12-05T14:53:22.477953+00:00", "status": "ok", "key_start": null, "key_end": null, "provenance": "single", "assisted": false, "_origin": "cli"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (6, 'bob', '2026-12-05 14:53:22.623907+00', 'add', 'element', 4, 'null', '{"query_id": 1, "document_id": "alpha.txt", "start": 30, "end": 53, "text": "Restores need a ticket.", "grade": 1, "annotator": "bob", "assisted": false, "layer": "final", "provenance": "single", "key_start": null, "key_end": null, "id": 4, "created_at": "2026-12-05T14:53:22.610412Z", "status": "ok"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (7, 'bob', '2026-12-05 14:53:22.631113+00', 'add', 'element', 5, 'null', '{"query_id": 2, "document_id": "beta.html", "start": 0, "end": 31, "text": "Passwords rotate every 90 days.", "grade": 1, "annotator": "bob", "assisted": false, "layer": "final", "provenance": "single", "key_start": null, "key_end": null, "id": 5, "created_at": "2026-12-05T14:53:22.627571Z", "status": "ok"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (8, 'bob', '2026-12-05 14:53:22.644134+00', 'remove', 'element', 5, '{"id": 5, "query_id": 2, "start": 0, "text": "Passwords rotate every 90 days.", "annotator": "bob", "status": "ok", "layer": "final", "key_start": null, "end": 31, "document_id": "beta.html", "grade": 1, "created_at": "2026-12-05T14:53:22.627571Z", "assisted": false, "provenance": "single", "key_end": null}', 'null', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (9, 'bob', '2026-12-05 14:53:22.667608+00', 'add', 'element', 5, 'null', '{"id": 5, "query_id": 2, "start": 0, "text": "Passwords rotate every 90 days.", "annotator": "bob", "status": "ok", "layer": "final", "key_start": null, "end": 31, "document_id": "beta.html", "grade": 1, "created_at": "2026-12-05T14:53:22.627571Z", "assisted": false, "provenance": "single", "key_end": null}', 'undo', 8, 'owner');
INSERT INTO public.audit_entry VALUES (10, 'lead', '2026-12-05 14:53:22.687164+00', 'add', 'query', 3, 'null', '{"gold_set_id": 2, "external_id": "t1", "text": "How often do passwords rotate?", "notes": "", "id": 3, "created_at": "2026-12-05T14:53:22.684980Z", "adjudicated_at": null, "adjudicated_by": null}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (11, 'lead', '2026-12-05 14:53:22.689082+00', 'add', 'query', 4, 'null', '{"gold_set_id": 2, "external_id": "t2", "text": "Who resets accounts?", "notes": "", "id": 4, "created_at": "2026-12-05T14:53:22.688442Z", "adjudicated_at": null, "adjudicated_by": null}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (12, 'lead', '2026-12-05 14:53:22.698069+00', 'add', 'assignment', 1, 'null', '{"query_id": 3, "annotator": "ana", "id": 1, "assigned_at": "2026-12-05T14:53:22.696512Z"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (13, 'ana', '2026-12-05 14:53:22.706175+00', 'add', 'element', 6, 'null', '{"query_id": 3, "document_id": "beta.html", "start": 0, "end": 31, "text": "Passwords rotate every 90 days.", "grade": 1, "annotator": "ana", "assisted": false, "layer": "annotator", "provenance": "own", "key_start": null, "key_end": null, "id": 6, "created_at": "2026-12-05T14:53:22.700501Z", "status": "ok"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (14, 'ana', '2026-12-05 14:53:22.711639+00', 'add', 'question_done', 1, 'null', '{"query_id": 3, "annotator": "ana", "no_answer": false, "id": 1, "done_at": "2026-12-05T14:53:22.710097Z"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (15, 'lead', '2026-12-05 14:53:22.714236+00', 'add', 'assignment', 2, 'null', '{"query_id": 3, "annotator": "bob", "id": 2, "assigned_at": "2026-12-05T14:53:22.712961Z"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (16, 'bob', '2026-12-05 14:53:22.721257+00', 'add', 'element', 7, 'null', '{"query_id": 3, "document_id": "beta.html", "start": 0, "end": 31, "text": "Passwords rotate every 90 days.", "grade": 1, "annotator": "bob", "assisted": false, "layer": "annotator", "provenance": "own", "key_start": null, "key_end": null, "id": 7, "created_at": "2026-12-05T14:53:22.719354Z", "status": "ok"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (17, 'bob', '2026-12-05 14:53:22.723998+00', 'add', 'question_done', 2, 'null', '{"query_id": 3, "annotator": "bob", "no_answer": false, "id": 2, "done_at": "2026-12-05T14:53:22.723323Z"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (18, 'lead', '2026-12-05 14:53:22.727444+00', 'add', 'assignment', 3, 'null', '{"query_id": 4, "annotator": "ana", "id": 3, "assigned_at": "2026-12-05T14:53:22.726817Z"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (19, 'ana', '2026-12-05 14:53:22.731012+00', 'add', 'element', 8, 'null', '{"query_id": 4, "document_id": "beta.html", "start": 32, "end": 61, "text": "Admins reset locked accounts.", "grade": 1, "annotator": "ana", "assisted": false, "layer": "annotator", "provenance": "own", "key_start": null, "key_end": null, "id": 8, "created_at": "2026-12-05T14:53:22.729054Z", "status": "ok"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (20, 'lead', '2026-12-05 14:53:22.736598+00', 'add', 'element', 9, 'null', '{"query_id": 3, "document_id": "beta.html", "start": 0, "end": 31, "text": "Passwords rotate every 90 days.", "grade": 1, "annotator": "lead", "assisted": false, "layer": "final", "provenance": "unanimous", "key_start": null, "key_end": null, "id": 9, "created_at": "2026-12-05T14:53:22.735401Z", "status": "ok"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (21, 'lead', '2026-12-05 14:53:22.754272+00', 'change', 'element', 9, '{"id": 9, "query_id": 3, "start": 0, "text": "Passwords rotate every 90 days.", "annotator": "lead", "status": "ok", "layer": "final", "key_start": null, "end": 31, "document_id": "beta.html", "grade": 1, "created_at": "2026-12-05T14:53:22.735401Z", "assisted": false, "provenance": "unanimous", "key_end": null}', '{"id": 9, "query_id": 3, "start": 0, "text": "Passwords rotate every 90 days.", "annotator": "lead", "status": "ok", "layer": "final", "key_start": 10, "end": 31, "document_id": "beta.html", "grade": 1, "created_at": "2026-12-05T14:53:22.735401Z", "assisted": false, "provenance": "unanimous", "key_end": 30}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (22, 'ana', '2026-12-05 14:53:22.757575+00', 'change', 'element', 8, '{"id": 8, "query_id": 4, "start": 32, "text": "Admins reset locked accounts.", "annotator": "ana", "status": "ok", "layer": "annotator", "key_start": null, "end": 61, "document_id": "beta.html", "grade": 1, "created_at": "2026-12-05T14:53:22.729054Z", "assisted": false, "provenance": "own", "key_end": null}', '{"id": 8, "query_id": 4, "start": 32, "text": "Admins reset locked accounts.", "annotator": "ana", "status": "ok", "layer": "annotator", "key_start": 39, "end": 61, "document_id": "beta.html", "grade": 1, "created_at": "2026-12-05T14:53:22.729054Z", "assisted": false, "provenance": "own", "key_end": 60}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (23, 'lead', '2026-12-05 14:53:22.764167+00', 'change', 'query', 3, '{"notes": "", "gold_set_id": 2, "external_id": "t1", "adjudicated_at": null, "id": 3, "text": "How often do passwords rotate?", "created_at": "2026-12-05T14:53:22.684980Z", "adjudicated_by": null}', '{"notes": "", "gold_set_id": 2, "external_id": "t1", "adjudicated_at": "2026-12-05T14:53:22.762432Z", "id": 3, "text": "How often do passwords rotate?", "created_at": "2026-12-05T14:53:22.684980Z", "adjudicated_by": "lead"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (24, 'lead', '2026-12-05 14:53:22.776746+00', 'add', 'annotator', 1, 'null', '{"id": 1, "name": "ana", "role": "annotator"}', 'do', NULL, 'owner');
INSERT INTO public.audit_entry VALUES (25, 'lead', '2026-12-05 14:53:22.778863+00', 'add', 'annotator', 2, 'null', '{"id": 2, "name": "bob", "role": "annotator"}', 'do', NULL, 'owner');


--
-- Data for Name: document; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.document VALUES ('alpha.txt', '/tmp/labeler-schema-fixture/pages/alpha.txt', '8a4f3220cc289852d8adc75326b314d6cd7ea27f451e0d6908c327a2d4f91152', 'text', 'Backups run nightly at 02:00. Restores need a ticket. The data owner approves exceptions.', '2026-12-05 14:53:22.282607+00', '0', DEFAULT);
INSERT INTO public.document VALUES ('beta.html', '/tmp/labeler-schema-fixture/pages/beta.html', '237686b43c0d7828d086b3783efaad4388a647993e1b752e16e91c1fe3f2b3e0', 'jsoup-1.15.3', 'Passwords rotate every 90 days. Admins reset locked accounts.', '2026-12-05 14:53:22.352739+00', '0,32', DEFAULT);


--
-- Data for Name: element; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.element VALUES (1, 1, 'alpha.txt', 0, 29, 'Backups run nightly at 02:00.', 2, 'ana', '2026-12-05 14:53:22.477953+00', 'ok', false, 'final', 'single', NULL, NULL);
INSERT INTO public.element VALUES (2, 2, 'alpha.txt', 54, 89, 'The data owner approves exceptions.', 1, 'ana', '2026-12-05 14:53:22.477953+00', 'ok', false, 'final', 'single', NULL, NULL);
INSERT INTO public.element VALUES (3, 2, 'beta.html', 32, 61, 'Admins reset locked accounts.', 1, 'ana', '2026-12-05 14:53:22.477953+00', 'ok', false, 'final', 'single', NULL, NULL);
INSERT INTO public.element VALUES (4, 1, 'alpha.txt', 30, 53, 'Restores need a ticket.', 1, 'bob', '2026-12-05 14:53:22.610412+00', 'ok', false, 'final', 'single', NULL, NULL);
INSERT INTO public.element VALUES (5, 2, 'beta.html', 0, 31, 'Passwords rotate every 90 days.', 1, 'bob', '2026-12-05 14:53:22.627571+00', 'ok', false, 'final', 'single', NULL, NULL);
INSERT INTO public.element VALUES (6, 3, 'beta.html', 0, 31, 'Passwords rotate every 90 days.', 1, 'ana', '2026-12-05 14:53:22.700501+00', 'ok', false, 'annotator', 'own', NULL, NULL);
INSERT INTO public.element VALUES (7, 3, 'beta.html', 0, 31, 'Passwords rotate every 90 days.', 1, 'bob', '2026-12-05 14:53:22.719354+00', 'ok', false, 'annotator', 'own', NULL, NULL);
INSERT INTO public.element VALUES (9, 3, 'beta.html', 0, 31, 'Passwords rotate every 90 days.', 1, 'lead', '2026-12-05 14:53:22.735401+00', 'ok', false, 'final', 'unanimous', 10, 30);
INSERT INTO public.element VALUES (8, 4, 'beta.html', 32, 61, 'Admins reset locked accounts.', 1, 'ana', '2026-12-05 14:53:22.729054+00', 'ok', false, 'annotator', 'own', 39, 60);


--
-- Data for Name: gold_set; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.gold_set VALUES (1, 'demo', '', '2026-12-05 14:53:22.475898+00', false);
INSERT INTO public.gold_set VALUES (2, 'team', 'two annotators', '2026-12-05 14:53:22.682852+00', true);


--
-- Data for Name: not_relevant; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: query; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.query VALUES (1, 1, 'q1', 'When do backups run?', 'nightly only', '2026-12-05 14:53:22.477953+00', NULL, NULL);
INSERT INTO public.query VALUES (2, 1, 'q2', 'Who approves exceptions?', '', '2026-12-05 14:53:22.477953+00', NULL, NULL);
INSERT INTO public.query VALUES (4, 2, 't2', 'Who resets accounts?', '', '2026-12-05 14:53:22.688442+00', NULL, NULL);
INSERT INTO public.query VALUES (3, 2, 't1', 'How often do passwords rotate?', '', '2026-12-05 14:53:22.68498+00', '2026-12-05 14:53:22.762432+00', 'lead');


--
-- Data for Name: question_done; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.question_done VALUES (1, 3, 'ana', '2026-12-05 14:53:22.710097+00', false);
INSERT INTO public.question_done VALUES (2, 3, 'bob', '2026-12-05 14:53:22.723323+00', false);


--
-- Data for Name: run; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.run VALUES (1, 'bm25', '2026-12-05 14:53:22.563536+00', 'run.jsonl', '{"k1": "0.9"}');


--
-- Data for Name: run_placement; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.run_placement VALUES (1, 'q1', '0ddc97dfa4af72c4c3944aafcf89e798', '0,30', '00', '{"88dbd9d0c061a0a25577c3ac61f48c07":[0]}', '29,23');
INSERT INTO public.run_placement VALUES (1, 'q2', '0ddc97dfa4af72c4c3944aafcf89e798', '-1', '0', '{"1eb35a4b1b50ed29a3714b6ffa74dd18":[54]}', '29');
INSERT INTO public.run_placement VALUES (1, 'q2', '4d4e01a33ff9ec6d870d45bd12aa5058', '32', '0', '{"a2c39004638ed871ecb9d30ab0ca06dc":[32]}', '29');


--
-- Data for Name: run_result; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.run_result VALUES (1, 1, 'q1', 1, 'Backups run nightly at 02:00.', 'alpha.txt', 3.5, 1, NULL, NULL);
INSERT INTO public.run_result VALUES (2, 1, 'q1', 2, 'Restores need a ticket.', 'alpha.txt', 1.25, 1, NULL, NULL);
INSERT INTO public.run_result VALUES (3, 1, 'q2', 1, 'Admins reset locked accounts.', 'beta.html', 2, 0, NULL, NULL);


--
-- Data for Name: schema_version; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schema_version VALUES (1, 'initial schema', '2026-12-05 14:53:22.252963+00');
INSERT INTO public.schema_version VALUES (2, 'lookup indexes', '2026-12-05 14:53:22.254518+00');
INSERT INTO public.schema_version VALUES (3, 'element assisted flag, audit undo/redo', '2026-12-05 14:53:22.254999+00');
INSERT INTO public.schema_version VALUES (4, 'chunk placements of imported runs', '2026-12-05 14:53:22.255268+00');
INSERT INTO public.schema_version VALUES (5, 'one element per question, page and span', '2026-12-05 14:53:22.2555+00');
INSERT INTO public.schema_version VALUES (6, 'page block starts', '2026-12-05 14:53:22.255715+00');
INSERT INTO public.schema_version VALUES (7, 'team gold sets: assignments, done marks, annotator layers, adjudication', '2026-12-05 14:53:22.25597+00');
INSERT INTO public.schema_version VALUES (8, 'element key spans', '2026-12-05 14:53:22.256177+00');
INSERT INTO public.schema_version VALUES (9, 'annotators and their link tokens', '2026-12-05 14:53:22.256359+00');
INSERT INTO public.schema_version VALUES (10, 'annotator roles, the actor''s role in the audit log', '2026-12-05 14:53:22.256531+00');
INSERT INTO public.schema_version VALUES (11, 'full-text index of page text', '2026-12-05 14:53:22.256699+00');
INSERT INTO public.schema_version VALUES (12, 'chunk offsets of run results', '2026-12-05 14:53:22.256866+00');
INSERT INTO public.schema_version VALUES (13, 'not-relevant judgements of page regions', '2026-12-05 14:53:22.257025+00');


--
-- Name: annotator_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.annotator_id_seq', 2, true);


--
-- Name: assignment_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.assignment_id_seq', 3, true);


--
-- Name: audit_entry_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.audit_entry_id_seq', 25, true);


--
-- Name: element_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.element_id_seq', 9, true);


--
-- Name: gold_set_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.gold_set_id_seq', 2, true);


--
-- Name: not_relevant_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.not_relevant_id_seq', 1, false);


--
-- Name: query_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.query_id_seq', 4, true);


--
-- Name: question_done_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.question_done_id_seq', 2, true);


--
-- Name: run_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.run_id_seq', 1, true);


--
-- Name: run_result_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.run_result_id_seq', 3, true);


--
-- Name: annotator annotator_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.annotator
    ADD CONSTRAINT annotator_name_key UNIQUE (name);


--
-- Name: annotator annotator_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.annotator
    ADD CONSTRAINT annotator_pkey PRIMARY KEY (id);


--
-- Name: annotator annotator_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.annotator
    ADD CONSTRAINT annotator_token_hash_key UNIQUE (token_hash);


--
-- Name: assignment assignment_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignment
    ADD CONSTRAINT assignment_pkey PRIMARY KEY (id);


--
-- Name: audit_entry audit_entry_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_entry
    ADD CONSTRAINT audit_entry_pkey PRIMARY KEY (id);


--
-- Name: document document_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.document
    ADD CONSTRAINT document_pkey PRIMARY KEY (id);


--
-- Name: element element_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.element
    ADD CONSTRAINT element_pkey PRIMARY KEY (id);


--
-- Name: gold_set gold_set_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gold_set
    ADD CONSTRAINT gold_set_name_key UNIQUE (name);


--
-- Name: gold_set gold_set_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gold_set
    ADD CONSTRAINT gold_set_pkey PRIMARY KEY (id);


--
-- Name: not_relevant not_relevant_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.not_relevant
    ADD CONSTRAINT not_relevant_pkey PRIMARY KEY (id);


--
-- Name: query query_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.query
    ADD CONSTRAINT query_pkey PRIMARY KEY (id);


--
-- Name: question_done question_done_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.question_done
    ADD CONSTRAINT question_done_pkey PRIMARY KEY (id);


--
-- Name: run run_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run
    ADD CONSTRAINT run_name_key UNIQUE (name);


--
-- Name: run run_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run
    ADD CONSTRAINT run_pkey PRIMARY KEY (id);


--
-- Name: run_placement run_placement_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run_placement
    ADD CONSTRAINT run_placement_pkey PRIMARY KEY (run_id, query_external_id, page_sha256);


--
-- Name: run_result run_result_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run_result
    ADD CONSTRAINT run_result_pkey PRIMARY KEY (id);


--
-- Name: schema_version schema_version_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_version
    ADD CONSTRAINT schema_version_pkey PRIMARY KEY (version);


--
-- Name: assignment uq_assignment_query_annotator; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignment
    ADD CONSTRAINT uq_assignment_query_annotator UNIQUE (query_id, annotator);


--
-- Name: not_relevant uq_not_relevant_span; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.not_relevant
    ADD CONSTRAINT uq_not_relevant_span UNIQUE (query_id, document_id, start, "end", layer, annotator);


--
-- Name: query uq_query_gold_set_external_id; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.query
    ADD CONSTRAINT uq_query_gold_set_external_id UNIQUE (gold_set_id, external_id);


--
-- Name: question_done uq_question_done_query_annotator; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.question_done
    ADD CONSTRAINT uq_question_done_query_annotator UNIQUE (query_id, annotator);


--
-- Name: run_result uq_run_result_rank; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run_result
    ADD CONSTRAINT uq_run_result_rank UNIQUE (run_id, query_external_id, rank);


--
-- Name: ix_audit_entity; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_audit_entity ON public.audit_entry USING btree (entity, entity_id);


--
-- Name: ix_document_search; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_document_search ON public.document USING gin (search);


--
-- Name: ix_element_document_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_element_document_status ON public.element USING btree (document_id, status);


--
-- Name: ix_element_query; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_element_query ON public.element USING btree (query_id);


--
-- Name: ix_not_relevant_query; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_not_relevant_query ON public.not_relevant USING btree (query_id);


--
-- Name: uq_element_final_span; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX uq_element_final_span ON public.element USING btree (query_id, document_id, start, "end") WHERE ((layer)::text = 'final'::text);


--
-- Name: uq_element_layer_span; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX uq_element_layer_span ON public.element USING btree (query_id, document_id, start, "end", annotator) WHERE ((layer)::text = 'annotator'::text);


--
-- Name: document document_text_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER document_text_update AFTER UPDATE OF text ON public.document FOR EACH ROW EXECUTE FUNCTION public.document_text_check();


--
-- Name: element element_span_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER element_span_insert BEFORE INSERT ON public.element FOR EACH ROW WHEN (((new.status)::text = 'ok'::text)) EXECUTE FUNCTION public.element_span_check();


--
-- Name: element element_span_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER element_span_update BEFORE UPDATE ON public.element FOR EACH ROW WHEN (((new.status)::text = 'ok'::text)) EXECUTE FUNCTION public.element_span_check();


--
-- Name: assignment assignment_query_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignment
    ADD CONSTRAINT assignment_query_id_fkey FOREIGN KEY (query_id) REFERENCES public.query(id) ON DELETE CASCADE;


--
-- Name: element element_document_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.element
    ADD CONSTRAINT element_document_id_fkey FOREIGN KEY (document_id) REFERENCES public.document(id) ON DELETE RESTRICT;


--
-- Name: element element_query_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.element
    ADD CONSTRAINT element_query_id_fkey FOREIGN KEY (query_id) REFERENCES public.query(id) ON DELETE CASCADE;


--
-- Name: not_relevant not_relevant_document_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.not_relevant
    ADD CONSTRAINT not_relevant_document_id_fkey FOREIGN KEY (document_id) REFERENCES public.document(id) ON DELETE RESTRICT;


--
-- Name: not_relevant not_relevant_query_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.not_relevant
    ADD CONSTRAINT not_relevant_query_id_fkey FOREIGN KEY (query_id) REFERENCES public.query(id) ON DELETE CASCADE;


--
-- Name: query query_gold_set_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.query
    ADD CONSTRAINT query_gold_set_id_fkey FOREIGN KEY (gold_set_id) REFERENCES public.gold_set(id) ON DELETE CASCADE;


--
-- Name: question_done question_done_query_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.question_done
    ADD CONSTRAINT question_done_query_id_fkey FOREIGN KEY (query_id) REFERENCES public.query(id) ON DELETE CASCADE;


--
-- Name: run_placement run_placement_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run_placement
    ADD CONSTRAINT run_placement_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.run(id) ON DELETE CASCADE;


--
-- Name: run_result run_result_run_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.run_result
    ADD CONSTRAINT run_result_run_id_fkey FOREIGN KEY (run_id) REFERENCES public.run(id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--


