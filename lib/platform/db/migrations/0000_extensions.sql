-- Trigram matching for typo-tolerant catalog search. Trusted extension: a database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
