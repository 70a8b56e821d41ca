-- Trigram indexes back the back office's search by name and e-mail.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
