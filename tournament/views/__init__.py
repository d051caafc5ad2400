"""Views, split by audience: public.py for everyone, director.py for directors."""
