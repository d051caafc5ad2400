import pytest
from django.test import Client


@pytest.mark.django_db
def test_the_home_page_says_what_spread_is(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert "Spread" in response.content.decode()
    assert "tournament director" in response.content.decode()
